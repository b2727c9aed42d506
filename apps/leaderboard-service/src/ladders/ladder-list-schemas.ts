import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { INSTANT, StoredBoardSchema } from './board-schemas.js';

// The OpenAPI response schema of GET /v1/ladders (LeaderboardQueries.ladderList builds it).

@ApiSchema({ name: 'LiveBoardSummary' })
export class LiveBoardSummarySchema {
  @ApiProperty({ ...INSTANT, description: 'when the live board last changed' })
  updatedAt!: string;
  @ApiProperty({ description: 'ranked players on it', example: 412 })
  players!: number;
}

@ApiSchema({ name: 'LadderSummary' })
export class LadderSummarySchema {
  @ApiProperty({ example: 'qq-gomoku' }) id!: string;
  @ApiProperty({ description: 'the game as its players know it', example: 'QQ游戏五子棋' })
  name!: string;
  @ApiProperty({ description: 'the language of name (BCP 47)', example: 'zh-Hans' })
  lang!: string;
  @ApiProperty({ description: "the ladder's rule set", example: 'qq-points' })
  ruleSet!: string;
  @ApiProperty({ description: "the ladder's time zone (IANA)", example: 'Asia/Shanghai' })
  timezone!: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'rated games before a player is ranked; null: never ranked (no board)',
    example: 10,
  })
  rankedAfter!: number | null;
  @ApiProperty({ description: 'whether the ladder has boards' }) hasLeaderboard!: boolean;
  @ApiProperty({
    type: () => StoredBoardSchema,
    nullable: true,
    description: 'the newest daily (06:00) board; null before the first',
  })
  currentBoard!: StoredBoardSchema | null;
  @ApiProperty({
    type: () => LiveBoardSummarySchema,
    nullable: true,
    description: 'the live board; null before its first build',
  })
  live!: LiveBoardSummarySchema | null;
}

@ApiSchema({ name: 'LadderList' })
export class LadderListSchema {
  @ApiProperty({
    type: () => LadderSummarySchema,
    isArray: true,
    description: 'in configuration order',
  })
  ladders!: LadderSummarySchema[];
}
