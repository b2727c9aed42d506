import { DateTime } from 'luxon';
import { BUILT_IN_LADDERS, type LadderConfig } from './ladder-config.js';
import { RULE_SET_NAMES, type RuleSetName } from './rule-set-name.js';

const LADDER_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** Checks one configured ladder; throws with a message that names the ladder and the field. */
export function checkLadderConfig(value: unknown): LadderConfig {
  const c = value as Partial<LadderConfig> | null;
  const name = typeof c?.id === 'string' ? c.id : JSON.stringify(c?.id);
  const fail = (field: string, why: string) => {
    throw new Error(`ladder ${name}: ${field} ${why}`);
  };
  if (typeof c !== 'object' || c === null) throw new Error('a ladder must be an object');
  if (typeof c.id !== 'string' || !LADDER_ID.test(c.id))
    fail('id', 'must match ^[a-z0-9][a-z0-9-]{0,63}$');
  if (!RULE_SET_NAMES.includes(c.ruleSet as RuleSetName))
    fail('ruleSet', `must be one of ${RULE_SET_NAMES.join(', ')}`);
  if (typeof c.startRating !== 'number' || !Number.isFinite(c.startRating))
    fail('startRating', 'must be a number');
  if (c.precision !== 1 && c.precision !== 0.5) fail('precision', 'must be 1 or 0.5');
  if (typeof c.timezone !== 'string' || !DateTime.now().setZone(c.timezone).isValid) {
    fail('timezone', 'must be an IANA time zone');
  }
  if (c.rankedAfter !== null && !(Number.isInteger(c.rankedAfter) && (c.rankedAfter ?? 0) >= 1)) {
    fail('rankedAfter', 'must be a whole number >= 1, or null');
  }
  return {
    id: c.id!,
    ruleSet: c.ruleSet!,
    startRating: c.startRating!,
    precision: c.precision!,
    timezone: c.timezone!,
    rankedAfter: c.rankedAfter ?? null,
  };
}

/** The ladders a deployment serves: the built-ins plus configured extras (an extra may not reuse an id). */
export function ladderRegistry(extra: readonly unknown[] = []): ReadonlyMap<string, LadderConfig> {
  const ladders = new Map(BUILT_IN_LADDERS.map((l) => [l.id, l]));
  for (const value of extra) {
    const ladder = checkLadderConfig(value);
    if (ladders.has(ladder.id)) throw new Error(`ladder ${ladder.id}: id is already taken`);
    ladders.set(ladder.id, ladder);
  }
  return ladders;
}
