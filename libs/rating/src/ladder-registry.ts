import { DateTime } from 'luxon';
import { BUILT_IN_LADDERS, type LadderConfig } from './ladder-config.js';
import { ParamError, resolveParams } from './rule-params.js';
import { RULE_SET_NAMES, type RuleSetName } from './rule-set-name.js';
import { RULE_SETS } from './rule-sets.js';

const LADDER_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** What a configured ladder may set (CONTRACT.md "Offline replay", README "Configuration"). */
const SETTINGS = [
  'id',
  'ruleSet',
  'startRating',
  'precision',
  'timezone',
  'rankedAfter',
  'params',
] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The precision of the built-in ladder of a rule set: a new ladder's when it sets none. */
const precisionOf = (ruleSet: RuleSetName): number =>
  BUILT_IN_LADDERS.find((l) => l.ruleSet === ruleSet)?.precision ?? 1;

/**
 * Checks one configured ladder and resolves its params once (the rule set's defaults with the
 * entry's `params` over them). With `base` (the built-in ladder of the same id) the keys the
 * entry omits keep the base's settings. Throws one line naming the ladder and the setting, or
 * the parameter: `ladder "x" param "k": the last row must have no "below"`.
 */
export function checkLadderConfig(value: unknown, base?: LadderConfig): LadderConfig {
  if (!isObject(value)) throw new Error('a ladder must be an object');
  const name = JSON.stringify(value.id ?? null);
  const fail = (why: string): never => {
    throw new Error(`ladder ${name}: ${why}`);
  };
  const unknown = Object.keys(value).find((key) => !(SETTINGS as readonly string[]).includes(key));
  if (unknown !== undefined)
    fail(`"${unknown}" is not a ladder setting (one of ${SETTINGS.join(', ')})`);
  const c = { ...base, ...value };
  if (typeof c.id !== 'string' || !LADDER_ID.test(c.id))
    fail('id must match ^[a-z0-9][a-z0-9-]{0,63}$');
  if (!RULE_SET_NAMES.includes(c.ruleSet as RuleSetName))
    fail(`ruleSet must be one of ${RULE_SET_NAMES.join(', ')}`);
  const ruleSet = c.ruleSet as RuleSetName;
  if (typeof c.startRating !== 'number' || !Number.isFinite(c.startRating))
    fail('startRating must be a number');
  const precision = c.precision ?? precisionOf(ruleSet);
  if (precision !== 1 && precision !== 0.5) fail('precision must be 1 or 0.5');
  if (typeof c.timezone !== 'string' || !DateTime.now().setZone(c.timezone).isValid)
    fail('timezone must be an IANA time zone');
  if (
    c.rankedAfter !== null &&
    !(Number.isInteger(c.rankedAfter) && (c.rankedAfter as number) >= 1)
  )
    fail('rankedAfter must be a whole number >= 1, or null');
  const overrides = value.params;
  if (overrides !== undefined && !isObject(overrides))
    return fail('params must be an object of parameters by name');
  let params: object;
  try {
    params = resolveParams(RULE_SETS[ruleSet].params, ruleSet, overrides);
  } catch (error) {
    if (!(error instanceof ParamError)) throw error;
    // `ladder "x" param "k": why`
    throw new Error(`ladder ${name} ${error.message}`);
  }
  return {
    id: c.id as string,
    ruleSet,
    startRating: c.startRating as number,
    precision,
    timezone: c.timezone as string,
    rankedAfter: c.rankedAfter as number | null,
    params,
  };
}

/**
 * The ladders a deployment serves: the built-ins, then the configured entries. An entry whose
 * id is a built-in ladder's replaces that ladder (keeping the settings it omits); an id may
 * appear once.
 */
export function ladderRegistry(
  entries: readonly unknown[] = [],
): ReadonlyMap<string, LadderConfig> {
  const builtIns = new Map(BUILT_IN_LADDERS.map((l) => [l.id, l]));
  const ladders = new Map(builtIns);
  const configured = new Set<string>();
  for (const value of entries) {
    const id = isObject(value) ? value.id : undefined;
    const ladder = checkLadderConfig(value, typeof id === 'string' ? builtIns.get(id) : undefined);
    if (configured.has(ladder.id)) throw new Error(`ladder "${ladder.id}": id appears twice`);
    configured.add(ladder.id);
    ladders.set(ladder.id, ladder);
  }
  return ladders;
}

/**
 * The ladders of a ladders file's text (a JSON array of entries): what RANKING_LADDERS_FILE and
 * `ranking replay --ladders` both read. Throws one line (the JSON error, or the ladder's).
 */
export function parseLadders(text: string): ReadonlyMap<string, LadderConfig> {
  const entries: unknown = JSON.parse(text);
  if (!Array.isArray(entries)) throw new Error('must hold a JSON array of ladders');
  return ladderRegistry(entries);
}
