import { Controller, ForbiddenException, Get, NotFoundException, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type EventStatus,
  eventStatus,
  isWellFormedEventId,
  MAX_EVENT_ID_CODE_POINTS,
  readRefusal,
  type ServiceGrant,
} from '@ranking/ingestion';
import { IngestReceiptRepository } from '@ranking/persistence';
import { ApiCommonProblems, ApiProblem } from '../conventions/api-responses.js';
import { API_VERSION } from '../conventions/api-version.js';
import { InvalidRequest } from '../conventions/invalid-request.js';
import { INGESTION_TOKEN_SCHEME } from './ingestion-openapi.js';
import { EventStatusSchema } from './ingestion-schemas.js';
import { Grant, NeedsScope } from './service-token-hook.js';

@ApiTags('ingestion')
@ApiBearerAuth(INGESTION_TOKEN_SCHEME)
@ApiCommonProblems()
@Controller({ path: 'events', version: API_VERSION })
@NeedsScope('ingest')
export class EventsController {
  constructor(private readonly receipts: IngestReceiptRepository) {}

  @Get(':id')
  @ApiOperation({
    operationId: 'getEventStatus',
    summary:
      'What became of an event of this token’s service or ladders: received, applied, void, ignored as a repeat, or rejected and why',
  })
  @ApiOkResponse({ description: "the event's status", type: EventStatusSchema })
  @ApiProblem(400, 'an id that is not 1 to 128 characters')
  @ApiProblem(401, 'no service token, or one unknown, revoked or expired (WWW-Authenticate)')
  @ApiProblem(
    403,
    "a token without the ingest scope, another service's event, or one of a ladder the token may not use",
  )
  @ApiProblem(404, 'no event with this id was received, stored or rejected')
  async status(@Param('id') id: string, @Grant() grant: ServiceGrant): Promise<EventStatus> {
    if (!isWellFormedEventId(id))
      throw new InvalidRequest([
        {
          detail: `an event id is 1 to ${MAX_EVENT_ID_CODE_POINTS} characters`,
          name: 'id',
          in: 'path',
        },
      ]);
    const traces = await this.receipts.traces(id);
    const refused = readRefusal(grant, id, traces);
    if (refused !== null) throw new ForbiddenException(refused);
    const status = eventStatus(id, traces);
    if (status === null)
      throw new NotFoundException(`no event with the id ${JSON.stringify(id)} is known`);
    return status;
  }
}
