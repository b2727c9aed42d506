import type { Skill } from './skill-model.js';

/** A player's estimate as the matchmaking index keeps it. */
export interface IndexedSkill extends Skill {
  readonly player: string;
  /** The finish of the last game the estimate counted (epoch ms); null: none yet. */
  readonly lastPlayedAt: number | null;
}

/** How long after their last counted game a player counts as active: 14 days. */
export const ACTIVE_FOR_MS = 14 * 86_400_000;

/** Up to this many entries in and out, an update splices them; more, it merges. */
const SPLICED_UP_TO = 64;

/** Mean first, then player id in code-unit order (the boards' tie order). */
function compare(a: IndexedSkill, b: IndexedSkill): number {
  return a.mu - b.mu || (a.player < b.player ? -1 : a.player > b.player ? 1 : 0);
}

/** One entry per player (the last given wins), in index order. */
function sortedUnique(players: Iterable<IndexedSkill>): IndexedSkill[] {
  const byPlayer = new Map<string, IndexedSkill>();
  for (const p of players) byPlayer.set(p.player, p);
  return [...byPlayer.values()].sort(compare);
}

/**
 * One ladder's players sorted by mean skill, for the opponents closest to a player: a binary
 * search finds the player's mean, then a walk outwards takes the nearer of the two next
 * entries each step, skipping the inactive, until it has enough. `ladder_players` has no index
 * on the estimate on purpose (every game rewrites it; ADR 21), so the matchmaking API keeps
 * this one in memory.
 */
export class SkillIndex {
  private sorted: IndexedSkill[];
  private readonly byPlayer = new Map<string, IndexedSkill>();

  constructor(players: Iterable<IndexedSkill> = []) {
    this.sorted = sortedUnique(players);
    for (const p of this.sorted) this.byPlayer.set(p.player, p);
  }

  get size(): number {
    return this.sorted.length;
  }

  get(player: string): IndexedSkill | undefined {
    return this.byPlayer.get(player);
  }

  /**
   * Takes the `gone` players out and puts the players' new estimates in, in place of what the
   * index had of them. A few players are spliced in and out (a memmove each); more, and the
   * entries are merged afresh, O(n + k log k).
   */
  update(players: readonly IndexedSkill[], gone: readonly string[] = []): void {
    const added = sortedUnique(players);
    const leaving = new Set<IndexedSkill>();
    for (const id of [...gone, ...added.map((p) => p.player)]) {
      const old = this.byPlayer.get(id);
      if (old !== undefined) leaving.add(old);
    }
    if (leaving.size + added.length <= SPLICED_UP_TO) {
      for (const old of leaving) this.sorted.splice(this.lowerBound(old), 1);
      for (const p of added) this.sorted.splice(this.lowerBound(p), 0, p);
    } else {
      const skip = new Uint8Array(this.sorted.length);
      for (const old of leaving) skip[this.lowerBound(old)] = 1;
      const merged: IndexedSkill[] = [];
      let j = 0;
      for (let i = 0; i < this.sorted.length; i++) {
        if (skip[i] === 1) continue;
        const kept = this.sorted[i]!;
        while (j < added.length && compare(added[j]!, kept) < 0) merged.push(added[j++]!);
        merged.push(kept);
      }
      while (j < added.length) merged.push(added[j++]!);
      this.sorted = merged;
    }
    for (const old of leaving) this.byPlayer.delete(old.player);
    for (const p of added) this.byPlayer.set(p.player, p);
  }

  /** The first entry not before `p` in index order (`p` itself when it is in the index). */
  private lowerBound(p: IndexedSkill): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(this.sorted[mid]!, p) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Up to `limit` players closest to the mean `mu` (smallest |mu difference|, ties by player
   * id), among those active at `activeSince` (a counted game at or after it), leaving out
   * `exclude` (the asking player).
   */
  closest(mu: number, limit: number, activeSince: number, exclude: string | null): IndexedSkill[] {
    if (limit <= 0) return [];
    const entries = this.sorted;
    // The first entry whose mean is at least `mu`: the walk goes down from below it, up from it.
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (entries[mid]!.mu < mu) lo = mid + 1;
      else hi = mid;
    }
    let down = lo - 1;
    let up = lo;
    const picked: IndexedSkill[] = [];
    // Once `limit` are picked, the walk goes on only through entries as far away as the last
    // one picked: equally far players are then ordered by id below.
    let boundary = Infinity;
    while (down >= 0 || up < entries.length) {
      const below = down >= 0 ? mu - entries[down]!.mu : Infinity;
      const above = up < entries.length ? entries[up]!.mu - mu : Infinity;
      const distance = Math.min(below, above);
      if (distance > boundary) break;
      const next = below <= above ? entries[down--]! : entries[up++]!;
      if (next.player === exclude || next.lastPlayedAt === null || next.lastPlayedAt < activeSince)
        continue;
      picked.push(next);
      if (picked.length === limit) boundary = distance;
    }
    return picked
      .map((p) => ({ p, distance: Math.abs(p.mu - mu) }))
      .sort((a, b) => a.distance - b.distance || (a.p.player < b.p.player ? -1 : 1))
      .slice(0, limit)
      .map(({ p }) => p);
  }
}
