/** One side of a two-player game as the analysis reads it. */
export interface DuelSide {
  readonly player: string;
  /** 1 a win, 0.5 a draw, 0 a loss. */
  readonly score: number;
  readonly ip: string | null;
}

/** A decided two-player game of a ladder, in the order the ladder's log holds it. */
export interface Duel {
  readonly ladder: string;
  readonly gameId: string;
  /** finishedAt in milliseconds (the analysis orders and dates games by it). */
  readonly at: number;
  /** finishedAt as the event wrote it (with its offset): quoted in the evidence. */
  readonly finishedAt: string;
  readonly sides: readonly [DuelSide, DuelSide];
}

/**
 * What the analysis reads of a duel (winTradingSuspects, integrityReport): its time and sides,
 * not its ids, so a duel handed to another thread need not carry them.
 */
export type JudgedDuel = Pick<Duel, 'at' | 'finishedAt' | 'sides'>;
