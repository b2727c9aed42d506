import { isReservedId, producerIdPrefix } from '@ranking/contracts';
import type { EventTraces } from './event-traces.js';
import { mayUseLadder, type ServiceGrant } from './service-grant.js';

/** What became of an event, as `GET /v1/events/:id` answers it. */
export type EventStatus =
  /** Sent to the intake by the API, not applied (nor refused) yet. */
  | {
      readonly status: 'received';
      readonly id: string;
      readonly ladder: string | null;
      readonly receivedAt: string;
    }
  | {
      readonly status: 'applied';
      readonly id: string;
      readonly ladder: string;
      readonly position: string;
      readonly appliedAt: string;
    }
  /** Stored and moving nothing (CONTRACT.md: void is not rejection). */
  | {
      readonly status: 'void';
      readonly id: string;
      readonly ladder: string;
      readonly position: string;
      readonly appliedAt: string;
      readonly reason: string;
    }
  /** The event sent under this id differs from the one applied under it first: it was ignored. */
  | {
      readonly status: 'ignored-as-repeat';
      readonly id: string;
      readonly ladder: string;
      readonly position: string;
      readonly appliedAt: string;
      readonly detail: string;
    }
  | {
      readonly status: 'rejected';
      readonly id: string;
      readonly ladder: string | null;
      /** `api`: refused by `POST /v1/games`; else the service that refused it. */
      readonly by: string;
      readonly code: string;
      readonly detail: string;
      readonly rejectedAt: string;
    };

/**
 * The status of an event from its traces, or null when the system knows nothing of the id.
 * The event store decides first (what is applied stays applied, even after an earlier
 * refusal); then a service's recorded rejection; then the API's own receipt.
 */
export function eventStatus(id: string, traces: EventTraces): EventStatus | null {
  const { receipt, stored, rejection } = traces;
  if (stored) {
    const where = {
      id,
      ladder: stored.ladder,
      position: stored.position,
      appliedAt: stored.recordedAt.toISOString(),
    };
    if (receipt?.status === 'accepted' && !receipt.digest.equals(stored.digest))
      return {
        status: 'ignored-as-repeat',
        ...where,
        detail: `another event with this id was applied first; the one sent at ${receipt.receivedAt.toISOString()} differs from it and was ignored`,
      };
    if (stored.voidReason !== null) return { status: 'void', ...where, reason: stored.voidReason };
    return { status: 'applied', ...where };
  }
  if (rejection)
    return {
      status: 'rejected',
      id,
      ladder: rejection.ladder,
      by: rejection.by,
      code: rejection.code,
      detail: rejection.detail,
      rejectedAt: rejection.rejectedAt.toISOString(),
    };
  if (!receipt) return null;
  if (receipt.status === 'rejected')
    return {
      status: 'rejected',
      id,
      ladder: receipt.ladder,
      by: 'api',
      code: receipt.code ?? 'invalid-event',
      detail: receipt.detail ?? '',
      rejectedAt: receipt.receivedAt.toISOString(),
    };
  return {
    status: 'received',
    id,
    ladder: receipt.ladder,
    receivedAt: receipt.receivedAt.toISOString(),
  };
}

/**
 * Why a token may not read an event's status, or null when it may. An id belongs to the
 * producer whose namespace it is in (CONTRACT.md "Transport", Producers): the intake and the API
 * admit `<producer>:…` from that producer alone, and record a receipt for nothing else, so the
 * namespace decides before any trace is looked at; then the ladder, when one is known.
 */
export function readRefusal(grant: ServiceGrant, id: string, traces: EventTraces): string | null {
  if (grant.producer === null) return 'this token belongs to no producer';
  if (isReservedId(id)) return `the id ${JSON.stringify(id)} is reserved for the system`;
  if (!id.startsWith(producerIdPrefix(grant.producer)))
    return `the id ${JSON.stringify(id)} is not in the namespace of the producer ${grant.producer} ("${producerIdPrefix(grant.producer)}")`;
  const { receipt, stored, rejection } = traces;
  // Receipts are recorded in their producer's namespace only; said again where it is read.
  if (receipt && receipt.producer !== grant.producer)
    return `the event ${JSON.stringify(id)} was sent by another producer`;
  if (stored && stored.type !== 'game.finished')
    return `the event ${JSON.stringify(id)} is not a game result`;
  const ladder = stored?.ladder ?? receipt?.ladder ?? rejection?.ladder ?? null;
  if (ladder !== null && !mayUseLadder(grant, ladder))
    return `this token may not use the ladder ${JSON.stringify(ladder)}`;
  return null;
}
