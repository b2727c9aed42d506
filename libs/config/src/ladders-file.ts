import { readFileSync } from 'node:fs';
import { type LadderConfig, ladderRegistry, parseLadders } from '@ranking/rating';
import { ConfigError, type Environment } from './environment.js';

/**
 * The ladders of a ladders file (built-ins plus its entries, RULES.md "Rule-set parameters"),
 * read and checked once; a bad file throws a ConfigError of one line: `source` (what named the
 * file: the variable or the CLI option), then the ladder and the setting or parameter.
 */
export function readLaddersFile(file: string, source: string): ReadonlyMap<string, LadderConfig> {
  try {
    return parseLadders(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`${source}: ${(error as Error).message}`);
  }
}

/** The ladders this deployment serves: built-ins plus the entries of RANKING_LADDERS_FILE. */
export function loadLadders(
  env: Pick<Environment, 'RANKING_LADDERS_FILE'>,
): ReadonlyMap<string, LadderConfig> {
  const file = env.RANKING_LADDERS_FILE;
  if (!file) return ladderRegistry();
  return readLaddersFile(file, `RANKING_LADDERS_FILE=${JSON.stringify(file)}`);
}
