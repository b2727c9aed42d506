import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import eventsSchema from './events.schema.json' with { type: 'json' };
import schema from './rating-changes.schema.json' with { type: 'json' };
import { isInstant } from './instant.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-nesting.js';
import type { RatingChangesMessage } from './rating-changes.js';

/** A rating-changes message read back, or why it cannot be read (one line naming the field). */
export type RatingChangesOutcome =
  | { readonly ok: true; readonly message: RatingChangesMessage }
  | { readonly ok: false; readonly reason: string };

// The event schema lends its definitions (ids and names): one pattern for both contracts.
const ajv = new Ajv2020({ allErrors: false, strict: false, unicodeRegExp: true });
// The borrowed definitions include the event schema's instants: without the format, ajv warns
// on the console and skips it. The events' own date-time (event-validator.ts).
ajv.addFormat('date-time', isInstant);
ajv.addSchema(eventsSchema);
// Compiled on first use, as the event schema is: commands that never read one skip the cost.
let compiled: ValidateFunction<RatingChangesMessage> | undefined;
const validate = (): ValidateFunction<RatingChangesMessage> =>
  (compiled ??= ajv.compile<RatingChangesMessage>(schema));

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads one `ranking.rating-changes` message (its value: UTF-8 JSON) and checks it against the
 * contract's schema; null is a Kafka message without a value.
 */
export function readRatingChanges(raw: string | Uint8Array | null): RatingChangesOutcome {
  let text: string;
  try {
    text = raw === null ? '' : typeof raw === 'string' ? raw : UTF8.decode(raw);
  } catch {
    return { ok: false, reason: 'the value is not UTF-8' };
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH))
    return { ok: false, reason: `nested more than ${MAX_JSON_DEPTH} levels deep` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'invalid JSON' };
  }
  // Keywords that apply to any JSON value would speak first of an array or a number.
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, reason: 'the message must be a JSON object' };
  const check = validate();
  if (!check(value)) return { ok: false, reason: explain(check.errors?.[0]) };
  // A comparison of two members, which the schema cannot state.
  if (value.previousSeq >= value.seq)
    return { ok: false, reason: '/previousSeq must be below /seq' };
  return { ok: true, message: value };
}

/** The first schema error as one line naming the member. */
function explain(error: ErrorObject | undefined): string {
  if (error === undefined) return 'the message does not match the schema';
  const where = error.instancePath === '' ? 'the message' : error.instancePath;
  if (error.keyword === 'required')
    return `${where} needs ${(error.params as { missingProperty: string }).missingProperty}`;
  // `"changes": false`: a member this kind of message must not have.
  if (error.keyword === 'false schema') return `${where} is not allowed here`;
  return `${where} ${error.message ?? 'is invalid'}`;
}
