import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { EVENT_TYPES } from '@ranking/contracts';
import { INSTANT, SkillSchema } from '../ladders/board-schemas.js';

// The OpenAPI response schemas of a player's history; the answer is HistoryReader's entries.

@ApiSchema({ name: 'HistoryEvent' })
class HistoryEventSchema {
  @ApiProperty({ enum: EVENT_TYPES })
  type!: string;
  @ApiProperty({
    ...INSTANT,
    description:
      "the event's own instant (UTC): a game's finish, a correction's, a closed period's end, a penalty's, an annulment's",
  })
  at!: string;
  @ApiPropertyOptional() gameId?: string;
  @ApiPropertyOptional({ description: 'a correction that voids the game' }) void?: boolean;
  @ApiPropertyOptional({ enum: ['daily', 'weekly', 'monthly'] }) period?: string;
  @ApiPropertyOptional({ description: "the closed period's key" }) key?: string;
  @ApiPropertyOptional({ description: "a penalty's reason, or how a game ended" }) reason?: string;
  @ApiPropertyOptional({ description: "a correction's or an annulment's note" }) note?: string;
  @ApiPropertyOptional({
    ...INSTANT,
    description: "an annulment: from when the player's games count for nothing",
  })
  since?: string;
}

@ApiSchema({ name: 'HistoryOther' })
class HistoryOtherSchema {
  @ApiProperty() player!: string;
  @ApiProperty({ description: 'their rating before the game' }) before!: number;
  @ApiProperty() after!: number;
  @ApiProperty() delta!: number;
  @ApiProperty({ type: String, nullable: true, enum: ['win', 'loss', 'draw'] })
  result!: string | null;
}

@ApiSchema({ name: 'SkillChange' })
class SkillChangeSchema {
  @ApiProperty({ type: () => SkillSchema }) before!: SkillSchema;
  @ApiProperty({ type: () => SkillSchema }) after!: SkillSchema;
}

@ApiSchema({ name: 'HistoryEntry' })
class HistoryEntrySchema {
  @ApiProperty({ description: 'the row id (cursors are row ids)' }) id!: number;
  @ApiProperty({ description: "the event's place in the ladder's log" }) seq!: number;
  @ApiProperty() eventId!: string;
  @ApiProperty() before!: number;
  @ApiProperty() after!: number;
  @ApiProperty() delta!: number;
  @ApiProperty({ type: String, nullable: true, enum: ['win', 'loss', 'draw'] })
  result!: string | null;
  @ApiProperty({
    type: Object,
    description: "the rule set's reason, by kind (elo, qq-points, penalty, correction, …)",
  })
  why!: unknown;
  @ApiProperty({ ...INSTANT, description: 'when the rating service applied it' })
  at!: string;
  @ApiProperty({ type: () => SkillChangeSchema, nullable: true })
  skill!: SkillChangeSchema | null;
  @ApiProperty({ type: () => HistoryEventSchema, nullable: true })
  event!: HistoryEventSchema | null;
  @ApiProperty({
    type: () => HistoryOtherSchema,
    isArray: true,
    description: 'a game: the other players it moved (team-mates have the same result)',
  })
  others!: HistoryOtherSchema[];
}

@ApiSchema({ name: 'HistoryPage' })
export class HistoryPageSchema {
  @ApiProperty() ladder!: string;
  @ApiProperty() player!: string;
  @ApiProperty({ type: () => HistoryEntrySchema, isArray: true, description: 'newest first' })
  entries!: HistoryEntrySchema[];
  @ApiProperty({ type: String, nullable: true }) nextCursor!: string | null;
}
