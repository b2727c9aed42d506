import type { RatingChange } from '@ranking/contracts';
import type { Why } from './effect.js';

/**
 * What happened to one player's rating: the row the rating history keeps, and the change a
 * `ranking.rating-changes` message lists (the contract's type, with the core's reasons).
 */
export type PlayerChange = RatingChange<Why>;
