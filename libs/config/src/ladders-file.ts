import { readFileSync } from 'node:fs';
import { type LadderConfig, ladderRegistry } from '@ranking/rating';
import { ConfigError, type Environment } from './environment.js';

/** The ladders this deployment serves: built-ins plus the extras of RANKING_LADDERS_FILE. */
export function loadLadders(
  env: Pick<Environment, 'RANKING_LADDERS_FILE'>,
): ReadonlyMap<string, LadderConfig> {
  const file = env.RANKING_LADDERS_FILE;
  if (!file) return ladderRegistry();
  let extra: unknown;
  try {
    extra = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(
      `RANKING_LADDERS_FILE=${JSON.stringify(file)}: ${(error as Error).message}`,
    );
  }
  if (!Array.isArray(extra))
    throw new ConfigError(
      `RANKING_LADDERS_FILE=${JSON.stringify(file)}: must hold a JSON array of ladders`,
    );
  try {
    return ladderRegistry(extra);
  } catch (error) {
    throw new ConfigError(
      `RANKING_LADDERS_FILE=${JSON.stringify(file)}: ${(error as Error).message}`,
    );
  }
}
