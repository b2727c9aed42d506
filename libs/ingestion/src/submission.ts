import { createHash } from 'node:crypto';
import type { IntakeRejectionCode } from '@ranking/contracts';
import type { GameResultAdmission } from '@ranking/rating';
import { mayUseLadder, type ServiceGrant } from './service-grant.js';

/** The most events one request may carry (`POST /v1/games`). */
export const MAX_EVENTS_PER_SUBMISSION = 500;

/** An admitted event of a submission, as it goes onto the intake topic. */
export interface SubmittedEvent {
  /** Its place in the request (0 for a single event). */
  readonly index: number;
  readonly id: string;
  readonly ladder: string;
  /** The message value: the event as compact JSON text. */
  readonly value: Buffer;
  /** SHA-256 of the value: tells a repeat of the same event from another under its id. */
  readonly digest: Buffer;
  /** An earlier event of the same request has this id: it is not sent again. */
  readonly repeatInRequest: boolean;
}

export interface RejectedEvent {
  readonly index: number;
  /** The event's id when it has a string one. */
  readonly id: string | null;
  /** The event's ladder when it names one as a string. */
  readonly ladder: string | null;
  readonly code: IntakeRejectionCode;
  readonly detail: string;
  readonly digest: Buffer;
}

/** What becomes of a request: all of it is sent, or none of it. */
export type SubmissionDecision =
  | {
      readonly kind: 'accepted';
      /** The producer they are sent as: its topic, its receipts. */
      readonly producer: string;
      readonly events: readonly SubmittedEvent[];
    }
  | { readonly kind: 'empty' }
  | { readonly kind: 'too-many'; readonly count: number }
  /** Events of ladders the token may not use: the request is refused whatever they hold. */
  | { readonly kind: 'forbidden'; readonly ladders: readonly string[] }
  /** A token that belongs to no producer: nothing it sends has a namespace. */
  | { readonly kind: 'no-producer' }
  | {
      readonly kind: 'rejected';
      /** Whose namespace the refused events' receipts may be recorded in. */
      readonly producer: string;
      readonly rejected: readonly RejectedEvent[];
      readonly count: number;
    };

const digestOf = (value: Buffer): Buffer => createHash('sha256').update(value).digest();

const ladderNamed = (element: unknown): string | null =>
  typeof element === 'object' &&
  element !== null &&
  typeof (element as { ladder?: unknown }).ladder === 'string'
    ? (element as { ladder: string }).ladder
    : null;

/**
 * Decides a `POST /v1/games` body (one event, or an array of them) for a token's grant, the
 * way the intake decides a message (GameResultAdmission: size, JSON, schema, type, reserved id,
 * the producer's namespace and ladders, the game itself), each event as the compact JSON it
 * will be sent as, for the producer the token belongs to. The request is
 * one unit: with any event refused, none is sent, so a game server fixes and resends the whole.
 * Checked in this order: the count, the token's ladders, then each event.
 */
export function decideSubmission(
  admission: GameResultAdmission,
  grant: ServiceGrant,
  body: unknown,
): SubmissionDecision {
  const elements = Array.isArray(body) ? (body as unknown[]) : [body];
  if (grant.producer === null) return { kind: 'no-producer' };
  const producer = { name: grant.producer, ladders: grant.ladders };
  if (elements.length === 0) return { kind: 'empty' };
  if (elements.length > MAX_EVENTS_PER_SUBMISSION)
    return { kind: 'too-many', count: elements.length };
  const foreign = new Set<string>();
  for (const element of elements) {
    const ladder = ladderNamed(element);
    if (ladder !== null && !mayUseLadder(grant, ladder)) foreign.add(ladder);
  }
  if (foreign.size > 0) return { kind: 'forbidden', ladders: [...foreign].sort() };

  const events: SubmittedEvent[] = [];
  const rejected: RejectedEvent[] = [];
  const ids = new Set<string>();
  elements.forEach((element, index) => {
    const value = Buffer.from(JSON.stringify(element) ?? 'null', 'utf8');
    const digest = digestOf(value);
    const decided = admission.admit(value, producer);
    if (!decided.admitted) {
      rejected.push({
        index,
        id: decided.id,
        ladder: ladderNamed(element),
        ...decided.rejection,
        digest,
      });
      return;
    }
    const { id } = decided.event;
    events.push({ index, id, ladder: decided.ladder, value, digest, repeatInRequest: ids.has(id) });
    ids.add(id);
  });
  return rejected.length > 0
    ? { kind: 'rejected', producer: producer.name, rejected, count: elements.length }
    : { kind: 'accepted', producer: producer.name, events };
}
