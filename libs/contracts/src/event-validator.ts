import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import schema from './events.schema.json' with { type: 'json' };
import type { LadderEvent } from './events.js';
import { instantMillis, isInstant } from './instant.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-nesting.js';
import { isValidPeriodKey } from './period-key.js';
import { type Rejection, reject } from './rejection-codes.js';
import { oversizedText, oversizedValue } from './value-size.js';

/** Parsing either yields an event shaped by the schema, or a rejection and the id when we could read one. */
export type ParseOutcome =
  { ok: true; event: LadderEvent } | { ok: false; rejection: Rejection; id: string | null };

// unicodeRegExp (the default, spelled out because the schema relies on it) compiles patterns
// with the `u` flag: `[^\ud800-\udfff]` then reads a surrogate pair as one code point, so it
// rejects unpaired surrogates only.
const ajv = new Ajv2020({ allErrors: false, strict: false, unicodeRegExp: true });
// Our own date-time, not ajv-formats': that one reads the seconds as a floating-point number,
// so 05:59:59.999999999999999999999 (valid RFC 3339, before 06:00) counts as second 60 and fails.
ajv.addFormat('date-time', isInstant);
// Compiled on first use: commands that never validate (rebuild, export) skip its start-up cost
// (about a tenth of the CLI's).
let compiled: ValidateFunction<LadderEvent> | undefined;
const validateSchema = (): ValidateFunction<LadderEvent> =>
  (compiled ??= ajv.compile<LadderEvent>(schema));

function describe(error: ErrorObject | undefined): string {
  if (!error) return 'does not match the event schema';
  const where = error.instancePath === '' ? 'event' : error.instancePath;
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return `${where === 'event' ? '' : `${where}/`}${missing} is required`;
  }
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperty: string }).additionalProperty;
    return `${where}/${extra} is not allowed`;
  }
  if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
    return `${where} must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return `${where} ${error.message ?? 'is invalid'}`;
}

/** One line naming the field; for an unmet `anyOf`, each alternative joined with "or". */
function explain(errors: ErrorObject[]): string {
  const anyOf = errors.findIndex((e) => e.keyword === 'anyOf');
  if (anyOf > 0) return errors.slice(0, anyOf).map(describe).join(' or ');
  return describe(errors[0]);
}

function idOf(value: unknown): string | null {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const id = (value as Record<string, unknown>).id;
    if (typeof id === 'string') return id;
  }
  return null;
}

function instantFields(event: LadderEvent): { name: string; value: string }[] {
  switch (event.type) {
    case 'game.finished':
      return [{ name: 'finishedAt', value: event.finishedAt }];
    case 'game.corrected':
      return [{ name: 'correctedAt', value: event.correctedAt }];
    case 'period.closed':
      return [
        { name: 'start', value: event.start },
        { name: 'end', value: event.end },
      ];
    case 'player.penalized':
      return [{ name: 'at', value: event.at }];
    case 'player.annulled':
      return [
        { name: 'since', value: event.since },
        { name: 'annulledAt', value: event.annulledAt },
      ];
  }
}

/** Checks an already-parsed JSON value against the v1 schema and the contract's extra rules. */
export function validateEvent(value: unknown): ParseOutcome {
  const validate = validateSchema();
  if (!validate(value)) {
    return {
      ok: false,
      rejection: reject('invalid-event', explain(validate.errors ?? [])),
      id: idOf(value),
    };
  }
  const unplaceable = instantFields(value).find(
    (field) => !Number.isFinite(instantMillis(field.value)),
  );
  if (unplaceable) {
    // RFC 3339 allows a leap second (23:59:60), which no clock here can place in time: the
    // date-time format refuses it already, and this keeps every accepted instant placeable.
    return {
      ok: false,
      rejection: reject(
        'invalid-event',
        `/${unplaceable.name} "${unplaceable.value}" is not a representable instant`,
      ),
      id: value.id,
    };
  }
  if (value.type === 'period.closed' && !isValidPeriodKey(value.period, value.key)) {
    return {
      ok: false,
      rejection: reject(
        'invalid-event',
        `/key "${value.key}" is not a real ${value.period} period`,
      ),
      id: value.id,
    };
  }
  return { ok: true, event: value };
}

// Strict: a replacement character would let a line through with altered ids. The BOM is
// kept, so a line that starts with one fails JSON.parse like any other stray character.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const invalidJson = (detail: string): ParseOutcome => ({
  ok: false,
  rejection: reject('invalid-json', detail),
  id: null,
});

/**
 * Parses one message or line: its size first (`oversizedValue`), then invalid-json, then the
 * schema (CONTRACT.md order). Bytes
 * must be UTF-8 (CONTRACT.md: a value is UTF-8 JSON); null is a Kafka message without a value,
 * which is as empty as an empty one.
 */
export function parseEvent(raw: string | Uint8Array | null): ParseOutcome {
  // CONTRACT.md "Transport": the size is decided first, on the bytes, before anything is read.
  const oversized =
    raw === null ? null : typeof raw === 'string' ? oversizedText(raw) : oversizedValue(raw);
  if (oversized) return { ok: false, rejection: oversized, id: null };
  let text: string;
  if (raw === null) text = '';
  else if (typeof raw === 'string') text = raw;
  else {
    try {
      text = UTF8.decode(raw);
    } catch {
      return invalidJson('the value is not UTF-8');
    }
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH))
    return invalidJson(`nested more than ${MAX_JSON_DEPTH} levels deep`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return invalidJson(error instanceof Error ? error.message : String(error));
  }
  return validateEvent(value);
}
