import { ApiProperty, ApiSchema } from '@nestjs/swagger';

// The answers of the matchmaking API as OpenAPI schemas (documentation: the handlers build
// plain objects of these shapes).

@ApiSchema({ name: 'SkillAnswer' })
export class SkillAnswer {
  @ApiProperty({ description: 'mean of the estimate (openskill scale: a new player is 25)' })
  mu!: number;

  @ApiProperty({ description: 'its uncertainty (a new player is 25/3)' })
  sigma!: number;
}

@ApiSchema({ name: 'OpponentAnswer' })
export class OpponentAnswer {
  @ApiProperty()
  player!: string;

  @ApiProperty({ type: SkillAnswer })
  skill!: SkillAnswer;

  @ApiProperty({ description: 'finish of their last counted game', format: 'date-time' })
  lastPlayedAt!: string;

  @ApiProperty({ description: 'chance that the asking player beats them, 0..1' })
  winProbability!: number;

  @ApiProperty({ description: 'how even the game would be, 0..1 (openskill draw probability)' })
  matchQuality!: number;
}

@ApiSchema({ name: 'OpponentsAnswer' })
export class OpponentsAnswer {
  @ApiProperty()
  ladder!: string;

  @ApiProperty()
  player!: string;

  @ApiProperty({ type: SkillAnswer, description: "the asking player's estimate" })
  skill!: SkillAnswer;

  @ApiProperty({
    description: 'players count as active with a counted game at or after this instant',
    format: 'date-time',
  })
  activeSince!: string;

  @ApiProperty({
    description: 'the estimates are those PostgreSQL held at this instant or later',
    format: 'date-time',
  })
  asOf!: string;

  @ApiProperty({
    type: [OpponentAnswer],
    description: 'closest in mean first (ties by player id)',
  })
  opponents!: OpponentAnswer[];
}

@ApiSchema({ name: 'PredictRequest' })
export class PredictRequest {
  @ApiProperty({
    description:
      "the game's sides, each a list of player ids: two-player ladders 2 sides of 1; squares 2 sides of 1 or 2; card-points 3 sides of 1 or 2 sides of 2",
    type: 'array',
    items: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 128 } },
    example: [['alice'], ['bob']],
  })
  teams!: string[][];
}

@ApiSchema({ name: 'PredictedPlayer' })
export class PredictedPlayer {
  @ApiProperty()
  player!: string;

  @ApiProperty({
    description: 'whether the ladder knows the player; an unknown player is taken at the prior',
  })
  known!: boolean;

  @ApiProperty({ type: SkillAnswer })
  skill!: SkillAnswer;
}

@ApiSchema({ name: 'PredictedSide' })
export class PredictedSide {
  @ApiProperty({ type: [PredictedPlayer] })
  players!: PredictedPlayer[];

  @ApiProperty({ description: 'chance that this side wins (the sides sum to 1)' })
  winProbability!: number;
}

@ApiSchema({ name: 'PredictionAnswer' })
export class PredictionAnswer {
  @ApiProperty()
  ladder!: string;

  @ApiProperty({ type: [PredictedSide], description: 'in the order of the request' })
  teams!: PredictedSide[];

  @ApiProperty({ description: 'how even the game would be, 0..1 (openskill draw probability)' })
  matchQuality!: number;
}
