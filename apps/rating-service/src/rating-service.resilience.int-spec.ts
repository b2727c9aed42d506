import { generateEvents } from '@ranking/generator';
import { ladderRegistry } from '@ranking/rating';
import { PROBE_PATHS } from '@ranking/operations';
import { probe, RatingScenario, restartLocalBroker, waitFor } from '@ranking/testing';

const ladders = ladderRegistry();
const stream = (seed: number) => [
  ...generateEvents({
    seed,
    events: 3000,
    closes: true,
    badShare: 0.02,
    correctionShare: 0.02,
    days: 10,
  }),
];

/** The rating service under faults: the result must still equal the offline replay. */
describe('rating service resilience (real Kafka and PostgreSQL)', () => {
  let world: RatingScenario;
  beforeEach(async () => {
    world = new RatingScenario(ladders);
    await world.setUp();
  });
  afterEach(() => world.tearDown());

  it('given three instances in one consumer group and one SIGKILLed mid-load, then the other two take its partitions and give the same state', async () => {
    const lines = stream(41);
    const [a, b, c] = [world.service(), world.service(), world.service()];
    for (const service of [a, b, c]) service.start();
    const members = async () => {
      const admin = world.kafka.admin();
      await admin.connect();
      try {
        const { groups } = await admin.describeGroups([`${world.prefix}rating-service`]);
        // Members of a settled assignment only (not while a rebalance is under way).
        return groups[0]!.state === 'Stable' ? groups[0]!.members.length : -1;
      } finally {
        await admin.disconnect();
      }
    };
    try {
      await waitFor(async () => (await members()) === 3, {
        timeout: 60_000,
        interval: 250,
        what: 'three members in the group',
      });
      const half = Math.floor(lines.length / 2);
      await world.produce(lines.slice(0, half));
      await waitFor(async () => (await world.storedEvents()) > 300, {
        timeout: 60_000,
        interval: 20,
        what: 'progress',
      });
      // The instance killed held partitions (its last join, as kafkajs logged it).
      const joins = b.logLines.filter((e) => e.message === 'Consumer has joined the group');
      const held = (joins.at(-1)?.memberAssignment as Record<string, number[]> | undefined)?.[
        world.topics.ladderEvents
      ];
      expect(held?.length).toBeGreaterThan(0);
      await b.stop('SIGKILL');
      await world.produce(lines.slice(half));
      // Its partitions move once the broker gives up on it (the session timeout).
      await waitFor(() => world.drained(), {
        timeout: 120_000,
        interval: 250,
        what: 'the backlog to drain without the killed instance',
      });
      await waitFor(async () => (await members()) === 2, {
        timeout: 60_000,
        interval: 500,
        what: 'the killed instance to leave the group',
      });
      await world.expectSameAsReplay(lines);
    } finally {
      await Promise.all([a.stop(), b.stop(), c.stop()]);
    }
  }, 240_000);

  it('when the database connections are cut during a load, then the service retries and loses nothing', async () => {
    const lines = stream(42);
    const rating = world.service();
    rating.start();
    try {
      // Produced in three waves, each cut short: a fetch may take a whole wave in one transaction.
      const wave = Math.ceil(lines.length / 3);
      for (let cut = 0; cut < 3; cut++) {
        const from = await world.storedEvents();
        await world.produce(lines.slice(cut * wave, (cut + 1) * wave));
        await waitFor(async () => (await world.storedEvents()) > from + 200, {
          timeout: 60_000,
          interval: 20,
          what: 'progress',
        });
        const killed: unknown[] = await world.db.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'rating-service' AND datname = current_database()",
        );
        expect(killed.length).toBeGreaterThan(0);
      }
      await waitFor(() => world.drained(), {
        timeout: 120_000,
        interval: 250,
        what: 'the backlog to drain',
      });
      await world.expectSameAsReplay(lines);
    } finally {
      await rating.stop();
    }
  }, 240_000);

  it('when the broker restarts during a load, then readiness names Kafka while liveness holds, and the service carries on and loses nothing', async () => {
    const lines = stream(43);
    const rating = world.service();
    rating.start();
    try {
      const base = await rating.url();
      await world.produce(lines);
      const from = await world.storedEvents();
      await waitFor(async () => (await world.storedEvents()) > from + 300, {
        timeout: 60_000,
        interval: 20,
        what: 'progress',
      });
      await restartLocalBroker({
        // An orchestrator must not restart the service for an outage it cannot cure.
        whileDown: async () => {
          const down = await waitFor(
            async () => {
              const answer = await probe(`${base}${PROBE_PATHS.ready}`);
              return answer.status === 503 ? answer : undefined;
            },
            { timeout: 20_000, interval: 200, what: 'readiness to fail' },
          );
          expect(down.body.error.kafka.status).toBe('down');
          expect((await probe(`${base}${PROBE_PATHS.live}`)).status).toBe(200);
        },
      });
      await waitFor(() => world.drained(), {
        timeout: 180_000,
        interval: 500,
        what: 'the backlog to drain after the restart',
      });
      await world.expectSameAsReplay(lines);
    } finally {
      await rating.stop();
    }
  }, 300_000);
});
