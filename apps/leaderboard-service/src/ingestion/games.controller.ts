import {
  Body,
  Controller,
  ForbiddenException,
  Headers,
  HttpCode,
  Inject,
  PayloadTooLargeException,
  Post,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiBody,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import {
  decideSubmission,
  MAX_EVENTS_PER_SUBMISSION,
  type RejectedEvent,
  type ServiceGrant,
  type SubmittedEvent,
} from '@ranking/ingestion';
import { IngestReceiptRepository, sqlOf } from '@ranking/persistence';
import { GameResultAdmission } from '@ranking/rating';
import type { DataSource } from 'typeorm';
import { ApiProblem } from '../conventions/api-responses.js';
import { API_VERSION } from '../conventions/api-version.js';
import { InvalidRequest } from '../conventions/invalid-request.js';
import { API_DATA_SOURCE } from '../tokens.js';
import { SUBMISSION_BODY_SCHEMA, SubmissionSchema } from './ingestion-schemas.js';
import { INGESTION_TOKEN_SCHEME } from './ingestion-openapi.js';
import { IntakeWriter } from './intake-writer.js';
import { Grant, NeedsScope } from './service-token-hook.js';

const JSON_MEDIA = /^application\/json\s*(;|$)/i;

/** The 400 of a request with refused events: each one named, with its code. */
function refusal(rejected: readonly RejectedEvent[], count: number): InvalidRequest {
  return new InvalidRequest(
    rejected.map((r) => ({
      detail: r.detail,
      code: r.code,
      ...(r.id !== null ? { id: r.id } : {}),
      name: `/${r.index}`,
      in: 'body' as const,
    })),
    `${rejected.length} of ${count} events were refused (each in errors, with its code); none was sent`,
  );
}

@ApiTags('ingestion')
@ApiBearerAuth(INGESTION_TOKEN_SCHEME)
@Controller({ path: 'games', version: API_VERSION })
@NeedsScope('ingest')
export class GamesController {
  constructor(
    private readonly admission: GameResultAdmission,
    private readonly writer: IntakeWriter,
    @Inject(API_DATA_SOURCE) private readonly db: DataSource,
  ) {}

  @Post()
  @HttpCode(202)
  @ApiOperation({
    operationId: 'submitGames',
    summary: `Game results: one game.finished or up to ${MAX_EVENTS_PER_SUBMISSION}, checked as the intake checks them and sent to it, all or none`,
  })
  @ApiBody({ schema: SUBMISSION_BODY_SCHEMA })
  @ApiAcceptedResponse({
    description: 'sent to the intake (accepted), or received before and not sent again (repeat)',
    type: SubmissionSchema,
  })
  @ApiProblem(400, 'events refused, each in errors with its index, id and code; none was sent')
  @ApiProblem(
    401,
    'no service token, or one unknown, revoked or expired (WWW-Authenticate); answered before the body is read',
  )
  @ApiProblem(
    403,
    'a token without the ingest scope (answered before the body is read) or of no producer, or an event of a ladder the token may not use; none was sent',
  )
  @ApiProblem(
    413,
    `a body over INGEST_BODY_LIMIT_BYTES, or over ${MAX_EVENTS_PER_SUBMISSION} events`,
  )
  @ApiProblem(415, 'a body that is not application/json')
  @ApiProblem(
    429,
    'over INGEST_REQUESTS_PER_MINUTE requests a minute with this token (Retry-After)',
  )
  @ApiProblem(
    503,
    'the broker, the database or the store of the request limits (Redis) away: nothing was sent; retry (Retry-After)',
  )
  @ApiProblem(500, 'a fault of the service; requestId names it in the log')
  async submit(
    @Body() body: unknown,
    @Grant() grant: ServiceGrant,
    @Headers('content-type') contentType: string | undefined,
  ): Promise<SubmissionSchema> {
    // Fastify also reads text/plain: a string is not a way to send events.
    if (!JSON_MEDIA.test(contentType ?? ''))
      throw new UnsupportedMediaTypeException(
        `send the events as application/json, not ${contentType ?? 'without a Content-Type'}`,
      );
    const decided = decideSubmission(this.admission, grant, body);
    switch (decided.kind) {
      case 'empty':
        throw new InvalidRequest([
          {
            detail: `an empty array: send one event or up to ${MAX_EVENTS_PER_SUBMISSION}`,
            in: 'body',
          },
        ]);
      case 'too-many':
        throw new PayloadTooLargeException(
          `at most ${MAX_EVENTS_PER_SUBMISSION} events a request; this one has ${decided.count}`,
        );
      case 'no-producer':
        throw new ForbiddenException(
          `this token (${grant.tokenId}, ${grant.service}) belongs to no producer: issue one with \`ranking producer add\`; none was sent`,
        );
      case 'forbidden':
        throw new ForbiddenException(
          `this token (${grant.tokenId}, ${grant.service}) may not use the ladder(s) ${decided.ladders.join(', ')}; it may use ${grant.ladders.join(', ')}; none was sent`,
        );
      case 'rejected':
        await new IngestReceiptRepository(sqlOf(this.db.manager)).recordRejected(
          decided.producer,
          decided.rejected,
        );
        throw refusal(decided.rejected, decided.count);
      case 'accepted':
        return this.send(decided.producer, decided.events, grant);
      default: {
        const unexpected: never = decided;
        throw new Error(`unexpected decision ${JSON.stringify(unexpected)}`);
      }
    }
  }

  /**
   * Receipts and the send in one transaction: an id is marked sent only if the broker took it,
   * and a concurrent request with the same id waits for this one, then finds it a repeat. If the
   * commit fails after the send, a retry sends the event again, which the fold ignores.
   */
  private async send(
    producer: string,
    events: readonly SubmittedEvent[],
    grant: ServiceGrant,
  ): Promise<SubmissionSchema> {
    const unique = events.filter((e) => !e.repeatInRequest);
    const fresh = await this.db.transaction(async (manager) => {
      const ids = await new IngestReceiptRepository(sqlOf(manager)).recordAccepted(
        producer,
        unique,
      );
      const sending = unique.filter((e) => ids.has(e.id));
      if (sending.length > 0) await this.writer.send(producer, sending, grant);
      return ids;
    });
    const answered = events.map((e) => ({
      index: e.index,
      id: e.id,
      status: !e.repeatInRequest && fresh.has(e.id) ? 'accepted' : 'repeat',
    }));
    const accepted = answered.filter((e) => e.status === 'accepted').length;
    return { accepted, repeats: answered.length - accepted, events: answered };
  }
}
