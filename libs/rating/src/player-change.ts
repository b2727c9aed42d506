import type { GameResult } from '@ranking/contracts';
import type { Why } from './effect.js';

/** What happened to one player's rating: the row the rating history keeps. */
export interface PlayerChange {
  readonly player: string;
  readonly before: number;
  readonly after: number;
  readonly delta: number;
  readonly result: GameResult | null;
  readonly why: Why;
}
