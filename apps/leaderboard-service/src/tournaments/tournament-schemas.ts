import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { INSTANT } from '../ladders/board-schemas.js';

// The OpenAPI response schemas of GET /v1/tournaments and /v1/tournaments/{id}: the shapes of
// libs/tournament's TournamentView and the list entries TournamentQueries builds.

const FATES = ['qualified', 'playoff', 'eliminated', 'playoff-needed', 'pending'];

@ApiSchema({ name: 'TournamentListEntry' })
export class TournamentListEntrySchema {
  @ApiProperty({ example: 'gen-cup' }) id!: string;
  @ApiProperty({ example: 'Generation Cup' }) name!: string;
  @ApiProperty({
    description: "the default ladder of the tournament's groups",
    example: 'qq-gomoku',
  })
  ladder!: string;
  @ApiProperty({ description: 'groups in the group stage' }) groups!: number;
  @ApiProperty({ description: 'players in the groups' }) players!: number;
  @ApiProperty({ type: [String], description: 'every ladder its groups and play-off play on' })
  ladders!: string[];
  @ApiProperty({ enum: ['not-started', 'in-progress', 'finished'] }) status!: string;
  @ApiProperty({ description: 'games reported so far (play-off included)' }) games!: number;
  @ApiProperty({ description: 'players through so far' }) qualified!: number;
}

@ApiSchema({ name: 'TournamentList' })
export class TournamentListSchema {
  @ApiProperty({ type: () => TournamentListEntrySchema, isArray: true })
  tournaments!: TournamentListEntrySchema[];
}

@ApiSchema({ name: 'Standing' })
export class StandingSchema {
  @ApiProperty() player!: string;
  @ApiProperty({
    description: 'from 1; players in an unbroken tie share the best place they tie for',
  })
  position!: number;
  @ApiProperty() played!: number;
  @ApiProperty() won!: number;
  @ApiProperty() drawn!: number;
  @ApiProperty() lost!: number;
  @ApiProperty() matchPoints!: number;
  @ApiProperty() gamesWon!: number;
  @ApiProperty() gamesLost!: number;
  @ApiProperty() smallPoints!: number;
  @ApiProperty({
    type: [String],
    description: 'still tied with after every rule; empty when placed',
  })
  tiedWith!: string[];
  @ApiProperty() playoffNeeded!: boolean;
  @ApiProperty({ enum: FATES }) fate!: string;
}

@ApiSchema({ name: 'Game' })
export class GameSchema {
  @ApiProperty() gameId!: string;
  @ApiProperty() eventId!: string;
  @ApiProperty(INSTANT) finishedAt!: string;
  @ApiProperty({ type: String, nullable: true, description: 'null for a drawn game' })
  winner!: string | null;
  @ApiProperty({ description: "a referee's no-show record" }) noShow!: boolean;
  @ApiProperty({ description: 'counted in the score' }) counted!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['after-end', 'replaced-by-no-show', 'void'],
    description: 'why it is not counted',
  })
  note!: string | null;
}

@ApiSchema({ name: 'Match' })
export class MatchSchema {
  @ApiProperty({
    type: String,
    nullable: true,
    description: "the referee's label; null while nothing was reported",
  })
  id!: string | null;
  @ApiProperty({ type: [String], minItems: 2, maxItems: 2 }) players!: string[];
  @ApiProperty({ enum: ['scheduled', 'playing', 'finished'] }) status!: string;
  @ApiProperty({
    type: [Number],
    minItems: 2,
    maxItems: 2,
    description: 'game wins of players[0] and players[1]',
  })
  score!: number[];
  @ApiProperty({ type: String, nullable: true }) winner!: string | null;
  @ApiProperty() draw!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'the player who did not appear' })
  noShow!: string | null;
  @ApiProperty({ type: () => GameSchema, isArray: true }) games!: GameSchema[];
}

@ApiSchema({ name: 'Group' })
export class GroupSchema {
  @ApiProperty() id!: string;
  @ApiProperty() ladder!: string;
  @ApiProperty({ type: [String] }) players!: string[];
  @ApiProperty() complete!: boolean;
  @ApiProperty({ type: () => StandingSchema, isArray: true }) standings!: StandingSchema[];
  @ApiProperty({ type: () => MatchSchema, isArray: true }) matches!: MatchSchema[];
}

@ApiSchema({ name: 'Playoff' })
export class PlayoffSchema {
  @ApiProperty() id!: string;
  @ApiProperty() ladder!: string;
  @ApiProperty({
    type: [String],
    nullable: true,
    description: 'the entrants once every group has placed its next player; null until then',
  })
  players!: string[] | null;
  @ApiProperty() complete!: boolean;
  @ApiProperty({ description: 'how many of the play-off go through' }) places!: number;
  @ApiProperty({ type: () => StandingSchema, isArray: true }) standings!: StandingSchema[];
  @ApiProperty({ type: () => MatchSchema, isArray: true }) matches!: MatchSchema[];
}

@ApiSchema({ name: 'Qualifier' })
export class QualifierSchema {
  @ApiProperty() player!: string;
  @ApiProperty() group!: string;
  @ApiProperty() position!: number;
}

@ApiSchema({ name: 'Advancement' })
export class AdvancementSchema {
  @ApiProperty({ description: 'places per group that go straight through' }) perGroup!: number;
  @ApiProperty({ type: () => QualifierSchema, isArray: true, description: 'who is through' })
  qualified!: QualifierSchema[];
  @ApiProperty({ type: () => QualifierSchema, isArray: true }) toPlayoff!: QualifierSchema[];
  @ApiProperty({
    type: () => QualifierSchema,
    isArray: true,
    description: 'whose fate waits on a play-off the rules cannot replace',
  })
  playoffNeeded!: QualifierSchema[];
}

@ApiSchema({ name: 'IgnoredEvent' })
export class IgnoredEventSchema {
  @ApiProperty() eventId!: string;
  @ApiProperty() gameId!: string;
  @ApiProperty({
    enum: [
      'unknown-group',
      'wrong-ladder',
      'wrong-player-count',
      'not-in-group',
      'inconsistent-result',
    ],
  })
  reason!: string;
}

@ApiSchema({ name: 'Tournament' })
export class TournamentSchema {
  @ApiProperty({ example: 'gen-cup' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() ladder!: string;
  @ApiProperty() complete!: boolean;
  @ApiProperty({ type: () => GroupSchema, isArray: true }) groups!: GroupSchema[];
  @ApiProperty({ type: () => PlayoffSchema, nullable: true }) playoff!: PlayoffSchema | null;
  @ApiProperty({ type: () => AdvancementSchema }) advancement!: AdvancementSchema;
  @ApiProperty({
    type: () => IgnoredEventSchema,
    isArray: true,
    description: 'reported games the tournament could not place, and why',
  })
  ignored!: IgnoredEventSchema[];
}
