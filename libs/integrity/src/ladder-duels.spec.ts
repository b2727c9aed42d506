import type { GameCorrected, GameFinished } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import type { Duel, JudgedDuel } from './duel.js';
import { duelColumns, duelsOf } from './duel-columns.js';
import { DuelCollector, duelSidesOf, gameEventOf } from './duels-from-events.js';
import { LadderDuels } from './ladder-duels.js';

const LADDER = 'igame-gomoku';

/** A generated log's game results and corrections of every ladder (corrections 5%, void or not). */
const events = (seed: number, count: number): (GameFinished | GameCorrected)[] =>
  [...generateEvents({ seed, events: count, correctionShare: 0.05 })]
    .map((line) => gameEventOf(line, () => true))
    .filter((e) => e !== null);

const collected = (log: readonly (GameFinished | GameCorrected)[]) => {
  const collector = new DuelCollector();
  for (const e of log) collector.add(e);
  return collector.byLadder().get(LADDER) ?? [];
};

/** What the analysis reads of a duel: what its columns carry. */
const judged = ({ at, finishedAt, sides }: Duel): JudgedDuel => ({ at, finishedAt, sides });

const game = (gameId: string, a: string, b: string, at = '2026-03-01T10:00:00+08:00') =>
  ({
    id: `e-${gameId}`,
    type: 'game.finished',
    ladder: LADDER,
    gameId,
    finishedAt: at,
    moves: 30,
    players: [
      { id: a, result: 'win', ip: '10.0.0.1' },
      { id: b, result: 'loss' },
    ],
  }) satisfies GameFinished;

const voided = (gameId: string): GameCorrected => ({
  id: `v-${gameId}`,
  type: 'game.corrected',
  ladder: LADDER,
  gameId,
  correctedAt: '2026-03-02T00:00:00Z',
  void: true,
});

describe('LadderDuels: one ladder’s duels in memory, within a cap', () => {
  it('Given a log within the cap, Then its duels are DuelCollector’s exactly, corrections applied, in log order', () => {
    const log = events(5, 20_000);
    const duels = new LadderDuels(LADDER, 1_000_000);
    for (const e of log) duels.add(e);
    const expected = collected(log);
    expect(expected.length).toBeGreaterThan(1000);
    expect(duels.heldGameIds()).toEqual(expected.map((d) => d.gameId));
    expect(duelsOf(duels.columns())).toEqual(expected.map(judged));
    expect(duels.games).toBe(expected.length);
    expect(duels.forgotten).toBe(0);
  });

  it('Given a log past the cap, Then only the latest cap games are held (as corrected), the oldest forgotten first, and the memory stays bounded however long the log', () => {
    const log = events(6, 40_000);
    const cap = 1000;
    const duels = new LadderDuels(LADDER, cap);
    let mostPlaces = 0;
    for (const e of log) {
      duels.add(e);
      expect(duels.recorded).toBeLessThanOrEqual(cap);
      mostPlaces = Math.max(mostPlaces, duels.places);
    }
    // Compacted whenever a quarter of the cap is forgotten: never more than 1.25 × cap places.
    expect(mostPlaces).toBeLessThanOrEqual(cap * 1.25);
    expect(duels.playersNamed).toBeLessThanOrEqual(2 * cap * 1.25);

    // The games recorded (duels, void later or not), in log order: the held ones are the last `cap`.
    const recorded: string[] = [];
    const seen = new Set<string>();
    for (const e of log)
      if (
        e.type === 'game.finished' &&
        e.ladder === LADDER &&
        !seen.has(e.gameId) &&
        duelSidesOf(e.players) !== null &&
        !Number.isNaN(Date.parse(e.finishedAt))
      ) {
        recorded.push(e.gameId);
        seen.add(e.gameId);
      }
    expect(recorded.length).toBeGreaterThan(3 * cap);
    const kept = new Set(recorded.slice(-cap));
    const all = collected(log);
    const expected = all.filter((d) => kept.has(d.gameId));
    expect(duels.heldGameIds()).toEqual(expected.map((d) => d.gameId));
    expect(duelsOf(duels.columns())).toEqual(expected.map(judged));
    expect(duels.games).toBe(expected.length);
    expect(duels.forgotten).toBe(all.length - expected.length);
    expect(duels.oldest).toBe(expected[0]!.finishedAt);
  });

  it('Given a cap of 2, Then a third game forgets the first; a correction of a forgotten game changes nothing; a void game takes its place until forgotten', () => {
    const duels = new LadderDuels(LADDER, 2);
    duels.add(game('g1', 'a', 'b'));
    duels.add(game('g2', 'c', 'd'));
    duels.add(game('g3', 'e', 'f'));
    expect(duels.heldGameIds()).toEqual(['g2', 'g3']);
    expect(duels.forgotten).toBe(1);
    duels.add(voided('g1'));
    expect(duels.heldGameIds()).toEqual(['g2', 'g3']);
    duels.add(voided('g2'));
    expect(duels.games).toBe(1);
    expect(duels.recorded).toBe(2);
    duels.add(game('g4', 'a', 'c'));
    // g2 (void) was the oldest recorded: it goes, and is not counted as a forgotten duel.
    expect(duels.heldGameIds()).toEqual(['g3', 'g4']);
    expect(duels.forgotten).toBe(1);
    // Only the held games' players are named once compacted.
    expect(duels.playersNamed).toBeLessThanOrEqual(4);
    expect(duels.pair('c', 'a').map((d) => d.gameId)).toEqual(['g4']);
    expect(duels.pair('a', 'b')).toEqual([]);
  });

  it('Given duels, Then their columns give back what the analysis reads of them (what the worker thread judges)', () => {
    const all = collected(events(7, 5000));
    expect(duelsOf(duelColumns(LADDER, all))).toEqual(all.map(judged));
  });

  it('Given a cap that is not a positive integer, Then it is refused', () => {
    expect(() => new LadderDuels(LADDER, 0)).toThrow(RangeError);
  });
});
