import { isWellFormedEventId } from './event-id.js';
import type { RejectedEvent } from './submission.js';

/**
 * Whether a refused event of `POST /v1/games` leaves a receipt (`GET /v1/events/:id` then
 * answers `rejected` and why). Only one with an id the contract allows (1 to 128 code points)
 * and a string ladder does: an id of any other length is not an id anyone can ask about, and a
 * receipt under it would let a client store keys of any size (up to the body limit). Such an
 * event is still listed in the 400.
 */
export const leavesReceipt = (
  refused: RejectedEvent,
): refused is RejectedEvent & { readonly id: string; readonly ladder: string } =>
  isWellFormedEventId(refused.id) && refused.ladder !== null;
