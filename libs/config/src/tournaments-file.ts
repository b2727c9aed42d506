import { readFileSync } from 'node:fs';
import type { LadderConfig } from '@ranking/rating';
import { checkTournamentConfigs, type TournamentConfig } from '@ranking/tournament';
import { ConfigError, type Environment } from './environment.js';

/**
 * The tournaments of RANKING_TOURNAMENTS_FILE (none without it), checked against the ladders
 * this deployment serves; a bad file stops start-up with one line naming the variable.
 */
export function loadTournaments(
  env: Pick<Environment, 'RANKING_TOURNAMENTS_FILE'>,
  ladders: ReadonlyMap<string, LadderConfig>,
): TournamentConfig[] {
  const file = env.RANKING_TOURNAMENTS_FILE;
  if (!file) return [];
  const fail = (why: string): never => {
    throw new ConfigError(`RANKING_TOURNAMENTS_FILE=${JSON.stringify(file)}: ${why}`);
  };
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return fail((error as Error).message);
  }
  if (!Array.isArray(value)) return fail('must hold a JSON array of tournaments');
  try {
    return checkTournamentConfigs(value, new Set(ladders.keys()));
  } catch (error) {
    return fail((error as Error).message);
  }
}
