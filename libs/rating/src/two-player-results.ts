import { type GameResult, type PlayerReport, type Rejection, reject } from '@ranking/contracts';

type TwoPlayerResults =
  | { readonly ok: true; readonly results: readonly [GameResult, GameResult] }
  | { readonly ok: false; readonly rejection: Rejection };

/** The only three consistent pairs, as constants: checking a game allocates nothing. */
const WIN_LOSS: TwoPlayerResults = Object.freeze({ ok: true, results: ['win', 'loss'] as const });
const LOSS_WIN: TwoPlayerResults = Object.freeze({ ok: true, results: ['loss', 'win'] as const });
const DRAW_DRAW: TwoPlayerResults = Object.freeze({ ok: true, results: ['draw', 'draw'] as const });

/** The results of a two-player game must be win/loss or draw/draw. */
export function twoPlayerResults(players: readonly PlayerReport[]): TwoPlayerResults {
  const a = players[0]?.result;
  const b = players[1]?.result;
  if (a === 'win' && b === 'loss') return WIN_LOSS;
  if (a === 'loss' && b === 'win') return LOSS_WIN;
  if (a === 'draw' && b === 'draw') return DRAW_DRAW;
  return {
    ok: false,
    rejection: reject(
      'inconsistent-result',
      `results ${String(a)} and ${String(b)} do not fit one game`,
    ),
  };
}

/** RULES.md: `result` is required everywhere but card-points. */
export function missingResult(players: readonly PlayerReport[]): string | null {
  const index = players.findIndex((p) => p.result === undefined);
  return index < 0 ? null : `/players/${index}/result is required`;
}

export const scoreOf = (result: GameResult): number =>
  result === 'win' ? 1 : result === 'draw' ? 0.5 : 0;
