import { generateEvents } from '@ranking/generator';
import { ladderRegistry } from '@ranking/rating';
import { RatingScenario, waitFor } from '@ranking/testing';

const ladders = ladderRegistry();
/**
 * Events of the crash test's load. CI keeps it small; `npm run test:crash` runs the full
 * 50,000-event load (RANKING_CRASH_EVENTS=50000).
 */
const CRASH_EVENTS = Number(process.env.RANKING_CRASH_EVENTS ?? 4000);

/** The rating service as a process on the real broker and database. */
describe('rating service (real Kafka and PostgreSQL)', () => {
  const world = new RatingScenario(ladders);
  beforeAll(() => world.setUp());
  afterAll(() => world.tearDown());

  const first = [
    ...generateEvents({
      seed: 31,
      events: 3000,
      closes: true,
      badShare: 0.04,
      correctionShare: 0.02,
      days: 15,
    }),
  ];
  const second = [
    ...generateEvents({
      seed: 32,
      events: CRASH_EVENTS,
      closes: true,
      badShare: 0.02,
      correctionShare: 0.02,
      days: 10,
      start: '2027-01-01T00:00:00+08:00',
    }),
  ];

  it('given a generated stream, when the service drains it, then the state equals the replay of its log, and rejects are dead-lettered', async () => {
    const rating = world.service();
    rating.start();
    try {
      await world.produce(first);
      await waitFor(() => world.drained(), {
        timeout: 90_000,
        interval: 250,
        what: 'the backlog to drain',
      });
      await world.expectSameAsReplay(first);
      const rejected = Number(
        (await world.db.query('SELECT count(*) AS n FROM rejected_messages'))[0].n,
      );
      expect(rejected).toBeGreaterThan(0);
      await waitFor(
        async () => (await world.db.query('SELECT count(*) AS n FROM outbox'))[0].n === '0',
        {
          what: 'the outbox to empty',
        },
      );
      const admin = world.kafka.admin();
      await admin.connect();
      const dead = await admin.fetchTopicOffsets(world.topics.deadLetter);
      await admin.disconnect();
      expect(dead.reduce((n, p) => n + Number(p.high), 0)).toBe(rejected);
    } finally {
      await rating.stop();
    }
  });

  it(
    'when the service is SIGKILLed 5 times during a load and restarted, then nothing is lost or applied twice',
    async () => {
      // The load keeps coming in chunks, so every kill lands while there is work in flight, and
      // a tail is held back until after the last kill, so work is provably left after each.
      const tail = second.slice(Math.floor(second.length * 0.9));
      const load = second.slice(0, second.length - tail.length);
      const chunk = Math.ceil(load.length / 5);
      const progress: number[] = [];
      for (let kill = 0; kill < 5; kill++) {
        await world.produce(load.slice(kill * chunk, (kill + 1) * chunk));
        const rating = world.service();
        rating.start();
        // Kill at a moment when it is working: once it has applied some more events.
        const from = await world.storedEvents();
        await waitFor(async () => (await world.storedEvents()) > from + 100 + kill * 17, {
          timeout: 60_000,
          interval: 20,
          what: 'progress',
        });
        await rating.stop('SIGKILL');
        progress.push(await world.storedEvents());
      }
      // Work was applied between every two kills.
      expect(new Set(progress).size).toBe(5);
      await world.produce(tail);
      const rating = world.service();
      rating.start();
      try {
        await waitFor(() => world.drained(), {
          timeout: 120_000 + CRASH_EVENTS * 5,
          interval: 250,
          what: 'the backlog to drain after the crashes',
        });
        await world.expectSameAsReplay([...first, ...second]);
      } finally {
        await rating.stop();
      }
    },
    300_000 + CRASH_EVENTS * 10,
  );
});
