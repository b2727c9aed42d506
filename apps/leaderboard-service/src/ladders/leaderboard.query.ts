import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { DATE } from '../boards/board-dates.js';
import { IsInstant } from '../instant-query.js';

export const MAX_LIMIT = 200;
export const MAX_RANK_JUMP = 100_000_000;

/** Query of GET /ladders/:ladder/leaderboard. */
export class LeaderboardQuery {
  @ApiPropertyOptional({
    description: "the board's date (its 06:00, the ladder's zone); default: the newest board",
    example: '2026-11-30',
  })
  @IsOptional()
  @Matches(DATE, { message: 'date must be a date as YYYY-MM-DD' })
  date?: string;

  @ApiPropertyOptional({ enum: ['daily', 'live'], default: 'daily' })
  @IsOptional()
  @IsIn(['daily', 'live'], { message: 'view must be daily or live' })
  view?: 'daily' | 'live';

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_LIMIT, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be at least 1' })
  @Max(MAX_LIMIT, { message: `limit must be at most ${MAX_LIMIT}` })
  limit?: number;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_RANK_JUMP,
    description:
      'start the page at the row in this position (1 = the top; with ties, the row of this rank or the tie group over it); not with cursor',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'rank must be a whole number' })
  @Min(1, { message: 'rank must be at least 1' })
  @Max(MAX_RANK_JUMP, { message: `rank must be at most ${MAX_RANK_JUMP}` })
  rank?: number;

  @ApiPropertyOptional({ description: 'nextCursor of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(400, { message: 'cursor is too long' })
  cursor?: string;

  @ApiPropertyOptional({
    description:
      'the live board as it was at this instant (RFC 3339 with an offset; a + sent as %2B): the state after every change the rating service had made by then. Not with view=daily or date; not in the future',
    example: '2026-11-29T13:00:00Z',
  })
  @IsOptional()
  @IsInstant()
  at?: string;
}
