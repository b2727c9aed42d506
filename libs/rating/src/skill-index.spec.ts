import fc from 'fast-check';
import { type IndexedSkill, SkillIndex } from './skill-index.js';

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 30);
const since = now - 14 * DAY;

const at = (player: string, mu: number, lastPlayedAt: number | null = now - DAY): IndexedSkill => ({
  player,
  mu,
  sigma: 3,
  lastPlayedAt,
});

/** The definition: active, not the asker, by |mu difference| then id, the first `limit`. */
function naive(
  players: Iterable<IndexedSkill>,
  mu: number,
  limit: number,
  activeSince: number,
  exclude: string | null,
): string[] {
  return [...players]
    .filter((p) => p.player !== exclude && p.lastPlayedAt !== null && p.lastPlayedAt >= activeSince)
    .sort((a, b) => Math.abs(a.mu - mu) - Math.abs(b.mu - mu) || (a.player < b.player ? -1 : 1))
    .slice(0, limit)
    .map((p) => p.player);
}

const ids = (players: IndexedSkill[]) => players.map((p) => p.player);

describe('SkillIndex', () => {
  it('given players around a mean, then the closest come first, both sides of it', () => {
    const index = new SkillIndex([
      at('far-low', 10),
      at('low', 23),
      at('me', 25),
      at('high', 26.5),
      at('far-high', 40),
      at('near-low', 24.5),
    ]);
    expect(ids(index.closest(25, 3, since, 'me'))).toEqual(['near-low', 'high', 'low']);
    expect(ids(index.closest(25, 10, since, 'me'))).toEqual([
      'near-low',
      'high',
      'low',
      // Both 15 away: by id.
      'far-high',
      'far-low',
    ]);
  });

  it('given players who last played before the window, or never, then they are passed over; one exactly at its start counts', () => {
    const index = new SkillIndex([
      at('stale', 25.1, since - 1),
      at('never', 25.2, null),
      at('edge', 25.3, since),
      at('fresh', 30, now),
    ]);
    expect(ids(index.closest(25, 2, since, null))).toEqual(['edge', 'fresh']);
  });

  it('given players equally far, then they are ordered by id, ties above and below the mean alike, and the cut at the limit keeps the smallest ids', () => {
    const index = new SkillIndex([
      at('d', 24),
      at('b', 26),
      at('c', 24),
      at('a', 26),
      at('e', 25),
      at('z', 25),
    ]);
    expect(ids(index.closest(25, 6, since, null))).toEqual(['e', 'z', 'a', 'b', 'c', 'd']);
    expect(ids(index.closest(25, 4, since, 'e'))).toEqual(['z', 'a', 'b', 'c']);
    expect(ids(index.closest(25, 3, since, 'z'))).toEqual(['e', 'a', 'b']);
  });

  it('given a mean outside every estimate, then the walk goes one way', () => {
    const index = new SkillIndex([at('a', 1), at('b', 2), at('c', 3)]);
    expect(ids(index.closest(-5, 2, since, null))).toEqual(['a', 'b']);
    expect(ids(index.closest(50, 2, since, null))).toEqual(['c', 'b']);
    expect(index.closest(50, 0, since, null)).toEqual([]);
    expect(new SkillIndex().closest(25, 5, since, null)).toEqual([]);
  });

  it('given updates, then players move to their new estimates, arrive, and leave', () => {
    const index = new SkillIndex([at('a', 20), at('b', 25), at('c', 30)]);
    index.update([at('a', 29), at('d', 24)], ['c']);
    expect(index.size).toBe(3);
    expect(index.get('a')?.mu).toBe(29);
    expect(index.get('c')).toBeUndefined();
    expect(ids(index.closest(30, 3, since, null))).toEqual(['a', 'b', 'd']);
  });

  it('equals the definition on random ladders, limits, windows and updates, small (spliced) and large (merged), with many ties', () => {
    const id = fc.integer({ min: 0, max: 99 }).map((n) => `p${n}`);
    const player = fc.record({
      player: id,
      mu: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.double({ min: -5, max: 60, noNaN: true })),
      sigma: fc.constant(2),
      lastPlayedAt: fc.option(fc.integer({ min: now - 30 * DAY, max: now })),
    });
    fc.assert(
      fc.property(
        fc.array(player, { maxLength: 120 }),
        fc.array(
          fc.tuple(
            fc.oneof(
              fc.array(player, { maxLength: 6 }),
              fc.array(player, { minLength: 60, maxLength: 150 }),
            ),
            fc.array(id, { maxLength: 20 }),
          ),
          { maxLength: 5 },
        ),
        fc.oneof(fc.integer({ min: 0, max: 6 }), fc.double({ min: -10, max: 70, noNaN: true })),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: now - 30 * DAY, max: now }),
        fc.option(id),
        (initial, updates, mu, limit, activeSince, exclude) => {
          const index = new SkillIndex(initial);
          const model = new Map(initial.map((p) => [p.player, p]));
          for (const [changed, gone] of updates) {
            index.update(changed, gone);
            for (const id of gone) model.delete(id);
            for (const p of changed) model.set(p.player, p);
          }
          expect(index.size).toBe(model.size);
          for (const [key, p] of model) expect(index.get(key)).toBe(p);
          expect(ids(index.closest(mu, limit, activeSince, exclude))).toEqual(
            naive(model.values(), mu, limit, activeSince, exclude),
          );
        },
      ),
      { numRuns: 1000 },
    );
  });
});
