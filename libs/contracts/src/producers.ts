import { isReservedId } from './reserved-ids.js';
import { TOPICS } from './topics.js';

/**
 * A game server as the intake knows it (CONTRACT.md "Transport", Producers): a name, which is
 * also its id namespace (`<name>:`), and the ladders it may write.
 */
export interface Producer {
  readonly name: string;
  readonly ladders: readonly string[];
}

/** Lower-case letters, digits and `-`, 1–40 characters, starting with a letter or a digit. */
export const PRODUCER_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;

/**
 * Names the contract's grammar allows that would collide with the system: `annulment` would
 * make its ids reserved ones (`annulment:…`), and `rejected` would name the shared rejection
 * topic of before (`ranking.game-results.rejected`) as its intake.
 */
const UNUSABLE_NAMES = new Set(['rejected']);

/** Why a name cannot be a producer's, or null when it can. */
export function producerNameProblem(name: string): string | null {
  if (!PRODUCER_NAME.test(name))
    return `a producer name is 1 to 40 lower-case letters, digits or "-", starting with a letter or a digit, not ${JSON.stringify(name)}`;
  if (UNUSABLE_NAMES.has(name) || isReservedId(`${name}:`))
    return `the producer name ${JSON.stringify(name)} is reserved by the system`;
  return null;
}

/** The prefix of every id the producer may send. */
export const producerIdPrefix = (name: string): string => `${name}:`;

/** The producer's own intake topic: what it writes, and the intake reads as its. */
export const producerTopic = (name: string, prefix = ''): string =>
  `${prefix}${TOPICS.gameResults}.${name}`;

/** The producer's rejections: written by the intake, read by this producer alone. */
export const producerRejectionTopic = (name: string, prefix = ''): string =>
  `${prefix}${TOPICS.gameResultsRejected}.${name}`;
