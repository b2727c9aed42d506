import { type ApiBody, ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { MAX_EVENTS_PER_SUBMISSION } from '@ranking/ingestion';
import { INSTANT } from '../ladders/board-schemas.js';

// The OpenAPI schemas of POST /v1/games and GET /v1/events/{id} (ADR 34).

// The package exports the body option's type only: a schema, derived from it.
type SchemaObject = Exclude<
  NonNullable<Extract<Parameters<typeof ApiBody>[0], { schema?: unknown }>['schema']>,
  { $ref: string }
>;

const EXAMPLE_GAME = {
  id: 'gomoku-server-1:g-20261129-000123',
  type: 'game.finished',
  ladder: 'igame-gomoku',
  gameId: 'g-20261129-000123',
  finishedAt: '2026-11-29T13:05:00+08:00',
  moves: 41,
  reason: 'five',
  players: [
    { id: 'alice', result: 'win', side: 'black', first: true, ip: '203.0.113.7' },
    { id: 'bob', result: 'loss', side: 'white', first: false, ip: '198.51.100.2' },
  ],
};

/** A game.finished as the contract defines it; the intake's checks decide the rest. */
export const GAME_FINISHED_SCHEMA: SchemaObject = {
  type: 'object',
  description:
    'a game.finished event (CONTRACT.md, events.schema.json): checked exactly as the intake checks a message, each event at most 65,536 bytes as compact JSON',
  required: ['id', 'type', 'ladder'],
  properties: {
    id: {
      type: 'string',
      minLength: 1,
      maxLength: 128,
      description: 'unique forever: the idempotency key',
    },
    type: { type: 'string', enum: ['game.finished'] },
    ladder: { type: 'string', description: 'one of the ladders of the token' },
  },
  additionalProperties: true,
  example: EXAMPLE_GAME,
};

/** The body: one event, or an array of 1 to 500. */
export const SUBMISSION_BODY_SCHEMA: SchemaObject = {
  oneOf: [
    GAME_FINISHED_SCHEMA,
    {
      type: 'array',
      minItems: 1,
      maxItems: MAX_EVENTS_PER_SUBMISSION,
      items: GAME_FINISHED_SCHEMA,
    },
  ],
};

@ApiSchema({ name: 'SubmittedEvent' })
export class SubmittedEventSchema {
  @ApiProperty({
    description: "the event's place in the request (0 for a single event)",
    example: 0,
  })
  index!: number;
  @ApiProperty({ example: 'gomoku-server-1:g-20261129-000123' }) id!: string;
  @ApiProperty({
    enum: ['accepted', 'repeat'],
    description:
      'accepted: sent to the intake now; repeat: an event with this id was received before (or earlier in this request) and is not sent again',
  })
  status!: string;
}

@ApiSchema({ name: 'Submission' })
export class SubmissionSchema {
  @ApiProperty({ description: 'events sent to the intake by this request', example: 1 })
  accepted!: number;
  @ApiProperty({ description: 'events not sent again: their id was received before', example: 0 })
  repeats!: number;
  @ApiProperty({ type: () => SubmittedEventSchema, isArray: true })
  events!: SubmittedEventSchema[];
}

@ApiSchema({ name: 'EventStatus' })
export class EventStatusSchema {
  @ApiProperty({ example: 'gomoku-server-1:g-20261129-000123' }) id!: string;
  @ApiProperty({
    enum: ['received', 'applied', 'void', 'ignored-as-repeat', 'rejected'],
    description:
      'received: sent to the intake, not applied yet; applied: in its ladder; void: stored and moving nothing (reason); ignored-as-repeat: another event with this id was applied first; rejected: refused (by, code, detail)',
    example: 'applied',
  })
  status!: string;
  @ApiProperty({ type: String, nullable: true, example: 'igame-gomoku' })
  ladder!: string | null;
  @ApiPropertyOptional({ description: "its place in the ladder's log", example: '1742' })
  position?: string;
  @ApiPropertyOptional({ ...INSTANT, description: 'when the rating service stored it' })
  appliedAt?: string;
  @ApiPropertyOptional({ ...INSTANT, description: 'received: when the API sent it to the intake' })
  receivedAt?: string;
  @ApiPropertyOptional({
    enum: ['same-ip', 'too-short'],
    description: 'void: why it moves nothing',
  })
  reason?: string;
  @ApiPropertyOptional({
    description: 'rejected: api (POST /v1/games) or the service that refused it',
    example: 'api',
  })
  by?: string;
  @ApiPropertyOptional({
    description: "rejected: the contract's code",
    example: 'inconsistent-result',
  })
  code?: string;
  @ApiPropertyOptional({ description: 'rejected or ignored-as-repeat: why, in words' })
  detail?: string;
  @ApiPropertyOptional({ ...INSTANT, description: 'rejected: when' })
  rejectedAt?: string;
}
