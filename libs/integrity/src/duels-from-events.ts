import type { GameCorrected, GameFinished, PlayerReport } from '@ranking/contracts';
import type { Duel, DuelSide } from './duel.js';

const SCORES: Record<string, number> = { win: 1, draw: 0.5, loss: 0 };

/**
 * A game's two sides as the analysis reads them, or null when the game is no duel: not two
 * distinct players, or no clear result (scores that do not add up to one game's point).
 */
export function duelSidesOf(
  players: readonly PlayerReport[],
): readonly [DuelSide, DuelSide] | null {
  if (players.length !== 2) return null;
  const [a, b] = players as [PlayerReport, PlayerReport];
  const valid = (p: PlayerReport) =>
    typeof p === 'object' &&
    p !== null &&
    typeof p.id === 'string' &&
    (p.ip === undefined || typeof p.ip === 'string');
  if (!valid(a) || !valid(b) || a.id === b.id) return null;
  const sa = a.result === undefined ? undefined : SCORES[a.result];
  const sb = b.result === undefined ? undefined : SCORES[b.result];
  if (sa === undefined || sb === undefined || sa + sb !== 1) return null;
  return [
    { player: a.id, score: sa, ip: a.ip ?? null },
    { player: b.id, score: sb, ip: b.ip ?? null },
  ];
}

/**
 * The two-player games of a log, as they stand after its corrections: a correction replaces a
 * game's results or, when void, removes it. Games of more players, or without a clear result,
 * are not duels and are left out (so are a correction's games the log never held). Pure: the
 * same events give the same duels, in log order.
 */
export class DuelCollector {
  private readonly duels: (Duel | null)[] = [];
  private readonly byGame = new Map<string, number>();

  add(event: GameFinished | GameCorrected): void {
    const key = `${event.ladder}\u0000${event.gameId}`;
    if (event.type === 'game.finished') {
      if (this.byGame.has(key)) return;
      const sides = duelSidesOf(event.players);
      const at = Date.parse(event.finishedAt);
      if (sides === null || Number.isNaN(at)) return;
      this.byGame.set(key, this.duels.length);
      this.duels.push({
        ladder: event.ladder,
        gameId: event.gameId,
        at,
        finishedAt: event.finishedAt,
        sides,
      });
      return;
    }
    const index = this.byGame.get(key);
    if (index === undefined) return;
    const duel = this.duels[index];
    if (!duel) return;
    const sides = event.void || !event.players ? null : duelSidesOf(event.players);
    this.duels[index] = sides === null ? null : { ...duel, sides };
  }

  /** The duels of each ladder, in log order. */
  byLadder(): Map<string, Duel[]> {
    const out = new Map<string, Duel[]>();
    for (const duel of this.duels) {
      if (duel === null) continue;
      let list = out.get(duel.ladder);
      if (!list) out.set(duel.ladder, (list = []));
      list.push(duel);
    }
    return out;
  }
}

/**
 * A line's game result or correction of a ladder `known` names, else null: any other line
 * cannot be a duel. Only the fields the collector reads are checked; the fold decides the rest.
 */
export function gameEventOf(
  text: string,
  known: (ladder: string) => boolean,
): GameFinished | GameCorrected | null {
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof event !== 'object' || event === null) return null;
  const e = event as { type?: unknown; ladder?: unknown; gameId?: unknown; players?: unknown };
  if (e.type !== 'game.finished' && e.type !== 'game.corrected') return null;
  if (typeof e.ladder !== 'string' || !known(e.ladder) || typeof e.gameId !== 'string') return null;
  if (e.players !== undefined && !Array.isArray(e.players)) return null;
  if (e.type === 'game.finished' && e.players === undefined) return null;
  return event as GameFinished | GameCorrected;
}
