import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { IsInstant } from '../instant-query.js';

export const MAX_AROUND = 50;
export const MAX_HISTORY = 200;
export const MAX_MATCHES = 50;

/** Query of GET /ladders/:ladder/players/:player. */
export class PlayerQuery {
  @ApiPropertyOptional({
    minimum: 0,
    maximum: MAX_AROUND,
    default: 5,
    description: 'neighbours on each side',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'around must be a whole number' })
  @Min(0, { message: 'around must be at least 0' })
  @Max(MAX_AROUND, { message: `around must be at most ${MAX_AROUND}` })
  around?: number;

  @ApiPropertyOptional({
    description:
      'the player as the live board showed them at this instant (RFC 3339 with an offset; a + sent as %2B), with their rank then; not in the future',
    example: '2026-11-29T13:00:00Z',
  })
  @IsOptional()
  @IsInstant()
  at?: string;
}

/** Query of GET /ladders/:ladder/players/:player/history. */
export class HistoryQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_HISTORY, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be at least 1' })
  @Max(MAX_HISTORY, { message: `limit must be at most ${MAX_HISTORY}` })
  limit?: number;

  @ApiPropertyOptional({ description: 'nextCursor of the previous page' })
  @IsOptional()
  @IsString()
  @Matches(/^\d{1,18}$/, { message: 'cursor is not one this API gave out' })
  cursor?: string;
}

/** Query of GET /ladders/:ladder/players (search by id prefix). */
export class PlayerSearchQuery {
  @ApiProperty({ description: 'the start of the player ids to find', example: 'p1' })
  @IsString({ message: 'prefix must be text' })
  @MinLength(1, { message: 'prefix must not be empty' })
  @MaxLength(128, { message: 'prefix must be at most 128 characters' })
  prefix!: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_MATCHES, default: 10 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be at least 1' })
  @Max(MAX_MATCHES, { message: `limit must be at most ${MAX_MATCHES}` })
  limit?: number;
}
