import { generateEvents } from '@ranking/generator';
import { PROBE_PATHS } from '@ranking/operations';
import { ladderRegistry } from '@ranking/rating';
import { probe, RatingScenario, sampleSum, waitFor } from '@ranking/testing';

const ladders = ladderRegistry();
const lines = (seed: number, events: number) => [
  ...generateEvents({ seed, events, badShare: 0, correctionShare: 0, days: 5 }),
];

/**
 * What an orchestrator and Prometheus see of the rating service when it cannot keep up (real
 * Kafka and PostgreSQL): readiness fails naming why, liveness holds, and the lag shows even
 * though no batch completes. (A broker away: the resilience suite's broker restart.)
 */
describe('rating service readiness and liveness', () => {
  const world = new RatingScenario(ladders);
  beforeAll(() => world.setUp());
  afterAll(() => world.tearDown());

  const ready = (base: string) => probe(`${base}${PROBE_PATHS.ready}`);
  const lag = async (base: string) =>
    sampleSum((await probe(`${base}${PROBE_PATHS.metrics}`)).text, 'ranking_consumer_lag_messages');

  it('given a stalled consumer, then the lag shows on the timer, readiness names it, and liveness holds; released, it catches up', async () => {
    const service = world.service({ READY_MAX_LAG_MESSAGES: '10' });
    service.start();
    const runner = world.db.createQueryRunner();
    try {
      const base = await service.url();
      await world.produce(lines(1, 20));
      await waitFor(async () => (await world.drained()) && (await ready(base)).status === 200, {
        timeout: 60_000,
        interval: 200,
        what: 'the service to be caught up and ready',
      });
      // Every batch writes the ladders table: an exclusive lock held elsewhere stalls them all.
      await runner.connect();
      await runner.startTransaction();
      await runner.query('LOCK TABLE ladders IN EXCLUSIVE MODE');
      const stalled = lines(2, 50);
      await world.produce(stalled);
      const down = await waitFor(
        async () => {
          const answer = await ready(base);
          return answer.status === 503 ? answer : undefined;
        },
        { timeout: 20_000, interval: 200, what: 'readiness to fail' },
      );
      expect(down.body.error.consumer.message).toMatch(
        /^\d+ messages behind \(ready at 10 or fewer\)$/,
      );
      expect(down.body.details.postgres.status).toBe('up');
      await waitFor(async () => (await lag(base)) === stalled.length, {
        timeout: 20_000,
        interval: 200,
        what: `a lag of ${stalled.length}`,
      });
      expect((await probe(`${base}${PROBE_PATHS.live}`)).status).toBe(200);
      expect(await world.drained()).toBe(false);
      await runner.commitTransaction();
      await waitFor(async () => (await world.drained()) && (await lag(base)) === 0, {
        timeout: 60_000,
        interval: 200,
        what: 'the backlog to drain once released',
      });
      await waitFor(async () => (await ready(base)).status === 200, {
        timeout: 20_000,
        what: 'readiness to return',
      });
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
      await service.stop();
    }
  }, 150_000);
});
