import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

// The OpenAPI response schemas of the board answers (live, daily and as of an instant). The
// answers themselves are written as JSON text (board-row.ts); these classes only describe them.

export const INSTANT = { type: String, format: 'date-time' } as const;

@ApiSchema({ name: 'BoardRow' })
export class BoardRowSchema {
  @ApiPropertyOptional({ description: 'competition rank (1, 2, 2, 4); absent on a lone row' })
  rank?: number;
  @ApiProperty() player!: string;
  @ApiProperty() rating!: number;
  @ApiProperty() games!: number;
  @ApiProperty() wins!: number;
  @ApiProperty() losses!: number;
  @ApiProperty() draws!: number;
  @ApiProperty({ description: 'games that counted for eligibility (rankedAfter)' })
  ratedGames!: number;
  @ApiPropertyOptional({ description: "the rule set's title for the rating (QQ ladders)" })
  title?: string;
  @ApiPropertyOptional({ description: "the rule set's level (Xinbo)" })
  level?: number;
}

/** What a board is: the fields a page and each side of a player's answer share. */
@ApiSchema({ name: 'BoardView' })
class BoardViewSchema {
  @ApiProperty({
    enum: ['daily', 'live'],
    description: 'live also for a board as of an instant',
  })
  view!: 'daily' | 'live';
  @ApiProperty({ description: 'true only for the live board as it is now' })
  live!: boolean;
  @ApiPropertyOptional({ description: "daily: the board's date (its 06:00, the ladder's zone)" })
  date?: string;
  @ApiPropertyOptional({ description: 'daily: the key of the day whose close it shows' })
  closeKey?: string;
  @ApiPropertyOptional({ ...INSTANT, description: 'daily: when it was published' })
  publishedAt?: string;
  @ApiPropertyOptional({
    ...INSTANT,
    nullable: true,
    description:
      'live: when it last changed; as of an instant: the last change by then (null before the first)',
  })
  updatedAt?: string | null;
  @ApiPropertyOptional({ ...INSTANT, description: 'as of an instant: the instant asked (UTC)' })
  at?: string;
  @ApiProperty({ description: 'ranked players on the board' })
  total!: number;
}

@ApiSchema({ name: 'BoardPage' })
export class BoardPageSchema extends BoardViewSchema {
  @ApiProperty() ladder!: string;
  @ApiProperty({ description: "the position (1 = the top) of the page's first row" })
  from!: number;
  @ApiProperty({ type: () => BoardRowSchema, isArray: true, description: 'in board order' })
  rows!: BoardRowSchema[];
  @ApiProperty({ type: String, nullable: true, description: "the next page's cursor" })
  nextCursor!: string | null;
}

@ApiSchema({ name: 'PlayerBoard' })
export class PlayerBoardSchema extends BoardViewSchema {
  @ApiProperty({ type: Number, nullable: true, description: 'null when not ranked on it' })
  rank!: number | null;
  @ApiPropertyOptional({
    type: () => BoardRowSchema,
    description: "daily: the player's standing frozen at the close",
  })
  standing?: BoardRowSchema;
  @ApiProperty({
    type: () => BoardRowSchema,
    isArray: true,
    description: "the ranked rows around the player's (empty when not ranked)",
  })
  around!: BoardRowSchema[];
}

@ApiSchema({ name: 'Skill' })
export class SkillSchema {
  @ApiProperty({ description: 'mean of the estimate (openskill scale, a new player 25)' })
  mu!: number;
  @ApiProperty({ description: 'uncertainty of the estimate (a new player 25/3)' })
  sigma!: number;
}

@ApiSchema({ name: 'Player' })
export class PlayerSchema extends BoardRowSchema {
  @ApiProperty() ladder!: string;
  @ApiPropertyOptional({ ...INSTANT, description: 'as of an instant: the instant asked (UTC)' })
  at?: string;
  @ApiPropertyOptional({
    description:
      'as of an instant: whether the player had played by then (when not, no rating or record)',
  })
  played?: boolean;
  @ApiProperty({ description: 'eligible (enough rated games) and so on the board' })
  ranked!: boolean;
  @ApiPropertyOptional({
    type: () => SkillSchema,
    description: 'the skill estimate now (not in an answer as of an instant)',
  })
  skill?: SkillSchema;
  @ApiProperty({
    type: () => PlayerBoardSchema,
    nullable: true,
    description: 'the live board now, or as of the instant asked',
  })
  live!: PlayerBoardSchema | null;
  @ApiPropertyOptional({
    type: () => PlayerBoardSchema,
    nullable: true,
    description: 'the newest daily board (not in an answer as of an instant)',
  })
  daily?: PlayerBoardSchema | null;
}

@ApiSchema({ name: 'PlayerMatches' })
export class PlayerMatchesSchema {
  @ApiProperty() ladder!: string;
  @ApiProperty() prefix!: string;
  @ApiProperty({
    type: () => BoardRowSchema,
    isArray: true,
    description: 'players who have played, in id order, as rows without a rank',
  })
  players!: BoardRowSchema[];
}

@ApiSchema({ name: 'StoredBoard' })
export class StoredBoardSchema {
  @ApiProperty({ description: "the board's date (its 06:00, the ladder's zone)" })
  date!: string;
  @ApiProperty({ description: 'the key of the day whose close it shows' })
  closeKey!: string;
  @ApiProperty({ ...INSTANT, description: 'when it was published' })
  publishedAt!: string;
  @ApiProperty({ description: 'ranked players on it' })
  players!: number;
}

@ApiSchema({ name: 'StoredBoards' })
export class StoredBoardsSchema {
  @ApiProperty() ladder!: string;
  @ApiProperty({ type: () => StoredBoardSchema, isArray: true, description: 'newest first' })
  boards!: StoredBoardSchema[];
}
