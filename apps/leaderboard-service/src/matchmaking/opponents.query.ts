import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const MAX_OPPONENTS = 100;

/** Query of GET /ladders/:ladder/players/:player/opponents. */
export class OpponentsQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_OPPONENTS, default: 10 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be at least 1' })
  @Max(MAX_OPPONENTS, { message: `limit must be at most ${MAX_OPPONENTS}` })
  limit?: number;
}
