import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import schema from './events.schema.json' with { type: 'json' };

/** What the contract allows as a player id, in words (for error messages). */
export const PLAYER_ID_RULE = '1 to 128 characters, none of them a control character';

// The events schema's own definition of an id, compiled as the event validator compiles it
// (patterns with the `u` flag, lengths in code points), so the two can never disagree.
let compiled: ValidateFunction<string> | undefined;

/** Whether a value is a player id the contract allows (`$defs/name` of the events schema). */
export function isPlayerId(value: unknown): value is string {
  compiled ??= new Ajv2020({ strict: false, unicodeRegExp: true }).compile<string>(
    schema.$defs.name,
  );
  return compiled(value);
}
