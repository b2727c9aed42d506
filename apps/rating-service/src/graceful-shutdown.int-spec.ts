import { generateEvents } from '@ranking/generator';
import { ladderRegistry } from '@ranking/rating';
import { RatingScenario, waitFor } from '@ranking/testing';

const ladders = ladderRegistry();

/** SIGTERM, as an orchestrator stops a service during a rollout (real Kafka and PostgreSQL). */
describe('a clean stop of the rating service', () => {
  describe('in the middle of a stream', () => {
    const world = new RatingScenario(ladders);
    beforeAll(() => world.setUp());
    afterAll(() => world.tearDown());

    it('when it gets SIGTERM, then it exits 0 within 10 s, and the next start loses nothing and applies nothing twice', async () => {
      const lines = [
        ...generateEvents({
          seed: 151,
          events: 30_000,
          badShare: 0.02,
          correctionShare: 0.02,
          closes: true,
          days: 20,
        }),
      ];
      const first = world.service();
      first.start();
      // Produced in waves as game servers do, so the stop falls while batches are under way.
      const producing = (async () => {
        for (let from = 0; from < lines.length; from += 1_000) {
          await world.produce(lines.slice(from, from + 1_000));
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      await waitFor(async () => (await world.storedEvents()) > 3_000, {
        timeout: 90_000,
        interval: 20,
        what: 'the service to be part-way through the stream',
      });
      const end = await first.stop('SIGTERM');
      expect(end).toMatchObject({ code: 0, signal: null });
      expect(end!.ms).toBeLessThan(10_000);
      await producing;
      expect(first.logLines.map((e) => e.message)).toEqual(
        expect.arrayContaining(['SIGTERM: shutting down']),
      );

      // Quieter logs this time: only warnings and worse.
      const second = world.service({ LOG_LEVEL: 'warn' });
      second.start();
      try {
        await waitFor(() => world.drained(), {
          timeout: 120_000,
          interval: 250,
          what: 'the backlog to drain after the restart',
        });
        await world.expectSameAsReplay(lines);
        expect(
          second.logLines.every((e) => ['warn', 'error', 'fatal'].includes(String(e.level))),
        ).toBe(true);
        expect(first.logLines.some((e) => e.level === 'info')).toBe(true);
      } finally {
        await second.stop();
      }
    }, 240_000);
  });
});
