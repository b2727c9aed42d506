import { type GameResult, type PlayerReport, type Rejection, reject } from '@ranking/contracts';

/** The results of a two-player game must be win/loss or draw/draw. */
export function twoPlayerResults(
  players: readonly PlayerReport[],
): { ok: true; results: [GameResult, GameResult] } | { ok: false; rejection: Rejection } {
  const a = players[0]?.result;
  const b = players[1]?.result;
  const consistent =
    (a === 'win' && b === 'loss') ||
    (a === 'loss' && b === 'win') ||
    (a === 'draw' && b === 'draw');
  if (!consistent || a === undefined || b === undefined) {
    return {
      ok: false,
      rejection: reject(
        'inconsistent-result',
        `results ${String(a)} and ${String(b)} do not fit one game`,
      ),
    };
  }
  return { ok: true, results: [a, b] };
}

/** RULES.md: `result` is required everywhere but card-points. */
export function missingResult(players: readonly PlayerReport[]): string | null {
  const index = players.findIndex((p) => p.result === undefined);
  return index < 0 ? null : `/players/${index}/result is required`;
}

export const scoreOf = (result: GameResult): number =>
  result === 'win' ? 1 : result === 'draw' ? 0.5 : 0;
