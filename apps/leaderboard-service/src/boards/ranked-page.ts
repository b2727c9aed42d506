import type { BoardSlice } from '@ranking/redis';

export interface RankedItem {
  readonly rank: number;
  readonly member: string;
  readonly score: string;
  readonly data: string;
}

/**
 * Competition ranks for a slice in board order: equal scores share a rank, and the next
 * score's rank counts everyone above it (1, 2, 2, 4).
 */
export function rankSlice(slice: Pick<BoardSlice, 'start' | 'firstRank' | 'items'>): RankedItem[] {
  const out: RankedItem[] = [];
  let previous: RankedItem | undefined;
  for (const [i, item] of slice.items.entries()) {
    const rank =
      previous === undefined
        ? slice.firstRank
        : item.score === previous.score
          ? previous.rank
          : slice.start + i + 1;
    previous = { rank, member: item.member, score: item.score, data: item.data ?? '' };
    out.push(previous);
  }
  return out;
}
