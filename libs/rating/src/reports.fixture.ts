import type { GameResult, PlayerReport } from '@ranking/contracts';

// A player's report in a test game: the result, and any other field the test needs.
const report =
  (result: GameResult) =>
  (id: string, more: Partial<PlayerReport> = {}): PlayerReport => ({ id, result, ...more });

export const win = report('win');
export const loss = report('loss');
export const draw = report('draw');
