import { readFileSync } from 'node:fs';
import { checkLadderConfig, type LadderConfig } from '@ranking/rating';
import { ConfigError } from './environment.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Ladder `base` under the settings of a ladders file (`ranking whatif --ladders FILE`): the
 * file's entry whose `id` is the ladder's replaces its settings, and the keys it omits keep the
 * ladder's (a `params` object is merged name by name, so a variant names only what it changes).
 * The result is checked as every configured ladder is (`checkLadderConfig`), so a variant may
 * hold whatever a ladders file may. Other entries are ignored: the deployment's own ladders
 * file, with one entry edited, serves as it is. The one place a what-if's variant is made.
 */
export function loadLadderVariant(base: LadderConfig, file: string): LadderConfig {
  const fail = (why: string): never => {
    throw new ConfigError(`${file}: ${why}`);
  };
  let entries: unknown;
  try {
    entries = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return fail((error as Error).message);
  }
  if (!Array.isArray(entries)) return fail('must hold a JSON array of ladders');
  const mine = entries.filter((e) => isObject(e) && e.id === base.id);
  if (mine.length === 0) return fail(`no entry for ladder ${base.id}`);
  if (mine.length > 1) return fail(`${mine.length} entries for ladder ${base.id}`);
  try {
    return checkLadderConfig(variantSettings(base, mine[0] as Record<string, unknown>));
  } catch (error) {
    return fail((error as Error).message);
  }
}

/** The ladder's settings with an entry's over them; `params` merged name by name. */
export function variantSettings(
  base: LadderConfig,
  entry: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base, ...entry };
  const params = (base as unknown as Record<string, unknown>).params;
  if (isObject(params) && isObject(entry.params)) merged.params = { ...params, ...entry.params };
  return merged;
}
