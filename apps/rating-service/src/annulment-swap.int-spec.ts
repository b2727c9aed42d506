import type { LadderEvent, PlayerAnnulled } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import { ladderRegistry } from '@ranking/rating';
import { RatingScenario, waitFor } from '@ranking/testing';

// ADR 24: an annulment is swapped in beside the consumer. The ladder keeps taking events while
// the refold thread re-folds it from a snapshot; at the swap it becomes exactly the fold of its
// log with the annulment where it stands (the offline replay is the judge). Snapshots are derived
// data: one of an older format is ignored and the re-fold starts from the log's start instead.

const ladders = ladderRegistry();
const LADDER = 'igame-gomoku';

const stream = [
  ...generateEvents({
    seed: 91,
    events: 3000,
    closes: true,
    correctionShare: 0.03,
    days: 20,
    playersPerLadder: 30,
  }),
];
const parsed = stream.map((line) => {
  try {
    return JSON.parse(line) as LadderEvent;
  } catch {
    return null; // the generator's bad lines
  }
});
const games = parsed.flatMap((e, index) =>
  e?.type === 'game.finished' && e.ladder === LADDER ? [{ ...e, index }] : [],
);
const cut = Math.floor(stream.length * 0.7);
/** A player of the last games before the cut, annulled from a recent game of theirs. */
function recentAnnulment(id: string, nth: number, before: number): string {
  const recent = games.filter((g) => g.index < before).slice(-40);
  const player = recent[nth]!.players[0]!.id;
  return JSON.stringify({
    id,
    type: 'player.annulled',
    ladder: LADDER,
    player,
    since: recent[nth]!.finishedAt,
    annulledAt: recent.at(-1)!.finishedAt,
    note: 'fair-play review',
  } satisfies PlayerAnnulled);
}
const first = recentAnnulment('swap-annul-1', 5, cut);
const second = recentAnnulment('swap-annul-2', 20, stream.length);

describe('annulments swapped in beside the consumer (real Kafka and PostgreSQL)', () => {
  const world = new RatingScenario(ladders);
  beforeAll(() => world.setUp());
  afterAll(() => world.tearDown());

  const swapLines = (output: string) =>
    output.split('\n').filter((l) => l.includes('swapped in at position'));

  it('given snapshots, when an annulment arrives amid a stream, then the ladder keeps taking events, the re-fold starts from a snapshot and the swapped state equals the replay; an old-format snapshot is ignored', async () => {
    const rating = world.service({ SNAPSHOT_EVERY_EVENTS: '250' });
    rating.start();
    try {
      await world.produce(stream.slice(0, cut));
      await waitFor(() => world.drained(), { timeout: 120_000, what: 'the first part to drain' });
      await waitFor(
        async () =>
          Number(
            (
              await world.db.query('SELECT count(*) AS n FROM ladder_snapshots WHERE ladder = $1', [
                LADDER,
              ])
            )[0].n,
          ) >= 2,
        { timeout: 60_000, what: 'the refold thread to write snapshots' },
      );

      // The annulment and the rest of the stream at once: events after it are applied while it
      // is re-folded, and swapped in with it.
      const withFirst = [...stream.slice(0, cut), first, ...stream.slice(cut)];
      await world.produce([first, ...stream.slice(cut)]);
      await waitFor(() => world.drained(), {
        timeout: 120_000,
        what: 'the stream to drain and the annulment to be swapped in',
      });
      await world.expectSameAsReplay(withFirst);
      const [swap] = swapLines(rating.output);
      const from = Number(/re-folded from (\d+) to/.exec(swap ?? '')?.[1]);
      expect(from).toBeGreaterThan(0);
      const moved: { n: string; players: string }[] = await world.db.query(
        `SELECT count(*) AS n, count(DISTINCT player) AS players FROM rating_history WHERE event_id = 'swap-annul-1'`,
      );
      expect(Number(moved[0]!.n)).toBeGreaterThan(0);
      expect(moved[0]!.n).toBe(moved[0]!.players);

      // Applied twice changes nothing: the annulment again is a duplicate, nothing is pending.
      const stored = await world.storedEvents();
      await world.produce([first]);
      await waitFor(() => world.drained(), { what: 'the repeat to drain' });
      expect(await world.storedEvents()).toBe(stored);
      expect(swapLines(rating.output)).toHaveLength(1);

      // Snapshots of another format (older code) are never read: the re-fold starts at 0.
      await world.db.query('UPDATE ladder_snapshots SET format = 0');
      await world.produce([second]);
      await waitFor(() => world.drained(), { timeout: 120_000, what: 'the second annulment' });
      await world.expectSameAsReplay([...withFirst, second]);
      const lines = swapLines(rating.output);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatch(/re-folded from 0 to/);
      await world.expectLiveSameAsLog();
    } finally {
      await rating.stop();
    }
  }, 300_000);
});

describe('an annulment pending while its ladder keeps taking events (real Kafka and PostgreSQL)', () => {
  const world = new RatingScenario(ladders);
  beforeAll(() => world.setUp());
  afterAll(() => world.tearDown());

  it('given the refold thread held back, when an annulment and later events arrive, then the later events are applied while it is pending, and the swap then makes the ladder the replay', async () => {
    const rating = world.service();
    rating.start();
    try {
      await world.produce(stream.slice(0, cut));
      await waitFor(() => world.drained(), { timeout: 120_000, what: 'the first part to drain' });
      // The refold thread reads snapshots before it folds: an exclusive lock on their table holds
      // it back (the consumer never reads them).
      const lock = world.db.createQueryRunner();
      await lock.connect();
      try {
        await lock.startTransaction();
        await lock.query('LOCK TABLE ladder_snapshots IN ACCESS EXCLUSIVE MODE');
        await world.produce([first, ...stream.slice(cut)]);
        await waitFor(() => world.consumed(), {
          timeout: 120_000,
          what: 'the events after the annulment to be consumed',
        });
        expect(await world.pendingAnnulments()).toBe(1);
        const [annulled] = await world.db.query(
          `SELECT seq FROM event_store WHERE event_id = 'swap-annul-1'`,
        );
        const [after] = await world.db.query(
          'SELECT count(*) AS n FROM rating_history WHERE ladder = $1 AND seq > $2',
          [LADDER, annulled.seq],
        );
        expect(Number(after.n)).toBeGreaterThan(0);
      } finally {
        await lock.rollbackTransaction();
        await lock.release();
      }
      await waitFor(() => world.drained(), { timeout: 120_000, what: 'the swap' });
      await world.expectSameAsReplay([...stream.slice(0, cut), first, ...stream.slice(cut)]);
      await world.expectLiveSameAsLog();
    } finally {
      await rating.stop();
    }
  }, 300_000);
});
