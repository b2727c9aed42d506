// Test fixtures of the rule-set parameter specs (`*-params.spec.ts`); not part of the build.
import type { GameContext, GameResult, PlayerReport } from '@ranking/contracts';
import type { LadderConfig } from '../ladder-config.js';
import { ladderRegistry } from '../ladder-registry.js';
import { LadderFold } from '../ladder-fold.js';
import { newPlayer, type PlayerState } from '../player-state.js';

/** The built-in ladder `id`, or with `params` that ladder as a ladders file entry replaces it. */
export const ladderWith = (id: string, params?: Record<string, unknown>): LadderConfig =>
  (params === undefined ? ladderRegistry() : ladderRegistry([{ id, params }])).get(id)!;

export interface GameOptions {
  /** Players already on the ladder, as whole states... */
  readonly given?: readonly PlayerState[];
  /** ...or new players at these ratings. */
  readonly ratings?: Readonly<Record<string, number>>;
  readonly moves?: number;
  readonly context?: GameContext;
  readonly at?: string;
}

let seq = 0;

/** One game of `players` folded on a fresh fold of the ladder; the fold and the outcome. */
export function oneGame(ladder: LadderConfig, players: PlayerReport[], options: GameOptions = {}) {
  const fold = new LadderFold(ladder);
  for (const state of options.given ?? []) fold.setPlayer(state);
  for (const [id, rating] of Object.entries(options.ratings ?? {}))
    fold.setPlayer({ ...newPlayer(id, ladder), rating });
  seq += 1;
  const outcome = fold.evolve({
    id: `e-${seq}`,
    type: 'game.finished',
    ladder: ladder.id,
    gameId: `g-${seq}`,
    finishedAt: options.at ?? '2026-03-02T21:00:00+08:00',
    moves: options.moves ?? 40,
    ...(options.context === undefined ? {} : { context: options.context }),
    players,
  });
  return { fold, outcome };
}

/** Each player's rating after one game (which must apply). */
export function ratingsAfter(
  ladder: LadderConfig,
  players: PlayerReport[],
  options: GameOptions = {},
): Record<string, number> {
  const { fold, outcome } = oneGame(ladder, players, options);
  if (outcome.status !== 'applied') throw new Error(`not applied: ${JSON.stringify(outcome)}`);
  return Object.fromEntries(players.map((p) => [p.id, fold.player(p.id).rating]));
}

/** The other player's result in a two-player game. */
export const opposite = (r: GameResult): GameResult =>
  r === 'win' ? 'loss' : r === 'loss' ? 'win' : 'draw';

/** A two-player game's reports: a with `resultOfA`, b with the opposite, and extra fields. */
export const pair = (
  a: string,
  b: string,
  resultOfA: GameResult,
  extraA: Partial<PlayerReport> = {},
  extraB: Partial<PlayerReport> = {},
): PlayerReport[] => [
  { id: a, result: resultOfA, ...extraA },
  { id: b, result: opposite(resultOfA), ...extraB },
];
