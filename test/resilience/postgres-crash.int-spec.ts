import { DEAD_LETTER_HEADERS, UNPROCESSABLE } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import { PROBE_PATHS } from '@ranking/operations';
import { ladderRegistry } from '@ranking/rating';
import {
  createMigratedDatabase,
  PrivatePostgres,
  probe,
  RatingScenario,
  readTopics,
  waitFor,
} from '@ranking/testing';

const ladders = ladderRegistry();
/** Games of every ladder, with corrections, period closes and a share of bad lines. */
const lines = [
  ...generateEvents({
    seed: 51,
    events: 4000,
    closes: true,
    badShare: 0.02,
    correctionShare: 0.02,
    days: 10,
  }),
];

/**
 * The rating service when PostgreSQL itself crashes: a private cluster (never the machine's
 * shared server), SIGKILLed with every backend while a consumer transaction has written events, then
 * started again on the same data directory (crash recovery). Whatever the service's commits
 * were doing at that moment, the result must equal the offline replay.
 */
describe('rating service across a PostgreSQL crash (real Kafka, a private PostgreSQL)', () => {
  let cluster: PrivatePostgres | undefined;
  let world: RatingScenario | undefined;
  beforeAll(async () => {
    cluster = await PrivatePostgres.create();
    const server = cluster.url();
    world = new RatingScenario(ladders, { database: () => createMigratedDatabase(server) });
    await world.setUp();
  }, 60_000);
  afterAll(async () => {
    try {
      // A test that failed during the outage left it down: the world's database is dropped there.
      if (cluster && !cluster.running) await cluster.start();
      await world?.tearDown();
    } finally {
      await cluster?.stop();
    }
  });

  it('when PostgreSQL is SIGKILLed mid-load and restarted, then the service goes not-ready, reconnects by itself, loses nothing and applies nothing twice', async () => {
    const [postgres, scenario] = [cluster!, world!];
    const rating = scenario.service();
    const ready = async () => probe(`${await rating.url()}${PROBE_PATHS.ready}`);
    rating.start();
    try {
      await waitFor(async () => (await ready()).status === 200, {
        timeout: 30_000,
        interval: 200,
        what: 'the service to be ready',
      });

      // The first half in pieces, so the service folds it in several transactions; the kill
      // lands once some are committed, while another has written events and not committed.
      const half = Math.floor(lines.length / 2);
      const producing = (async () => {
        for (let i = 0; i < half; i += 250) await scenario.produce(lines.slice(i, i + 250));
      })();
      await waitFor(
        async () => {
          // A consumer transaction that has written events and not committed yet (the relay's
          // transactions never write the event store).
          const [row]: { stored: number; writing: number }[] = await scenario.db.query(
            `SELECT (SELECT count(*) FROM event_store)::int AS stored,
                    (SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid)
                      WHERE a.application_name = 'rating-service' AND l.granted
                        AND l.relation = 'event_store'::regclass
                        AND l.mode = 'RowExclusiveLock')::int AS writing`,
          );
          return row!.stored >= 200 && row!.writing > 0;
        },
        { timeout: 60_000, interval: 10, what: 'a consumer transaction writing events' },
      );
      // The postmaster and its backends and helpers.
      expect(await postgres.kill()).toBeGreaterThan(1);
      await producing;
      // The rest arrives while the database is away.
      await scenario.produce(lines.slice(half));

      // An orchestrator stops sending it work, and must not restart it: the database is away.
      const down = await waitFor(
        async () => {
          const answer = await ready();
          return answer.status === 503 && answer.body.error?.postgres ? answer : undefined;
        },
        { timeout: 20_000, interval: 200, what: 'readiness to name PostgreSQL' },
      );
      expect(down.body.error.postgres.status).toBe('down');
      expect((await probe(`${await rating.url()}${PROBE_PATHS.live}`)).status).toBe(200);
      // Its work met the outage: the consumer's transaction failed as transient and is retried
      // (a few times: the outage lasts).
      await waitFor(
        () =>
          rating.logLines.some(
            (line) =>
              line.context === 'RatingConsumer' &&
              line.kind === 'transient' &&
              Number(line.attempt) >= 3,
          ),
        { timeout: 20_000, interval: 100, what: 'the consumer to retry a transient failure' },
      );

      await postgres.start();
      expect(postgres.logSinceStart).toContain(
        'database system was not properly shut down; automatic recovery in progress',
      );
      await waitFor(() => scenario.drained(), {
        timeout: 60_000,
        interval: 250,
        what: 'the backlog to drain after the restart',
      });
      await waitFor(async () => (await ready()).status === 200, {
        timeout: 30_000,
        interval: 200,
        what: 'readiness to return',
      });
      // The same process throughout: it reconnected, nobody restarted it.
      expect(rating.status()).toMatch(/^running/);

      // Every accepted event stored once, and the state equal to the replay of the stream and
      // of the stored log; the export the same text as the offline replay's.
      await scenario.expectSameAsReplay(lines);
      expect(
        await scenario.db.query(
          'SELECT event_id, count(*)::int AS n FROM event_store GROUP BY event_id HAVING count(*) > 1',
        ),
      ).toEqual([]);
      await scenario.expectExportSameAsReplayText(lines);

      // Only the bad lines were set aside (the export's rejected list matched the replay's):
      // no transaction the crash broke was taken for a poison message.
      expect(rating.output).not.toContain('set aside as unprocessable');
      const rejected: { reason: string; value: Buffer }[] = await scenario.db.query(
        'SELECT reason, value FROM rejected_messages',
      );
      expect(rejected.length).toBeGreaterThan(0);
      expect(rejected.filter((r) => r.reason === UNPROCESSABLE)).toEqual([]);
      // Each dead letter published at least once (the outbox is at least once), nothing else.
      await waitFor(
        async () => (await scenario.db.query('SELECT count(*) AS n FROM outbox'))[0].n === '0',
        { timeout: 30_000, what: 'the outbox to empty' },
      );
      const letters = [
        ...(await readTopics(scenario.kafka, [scenario.topics.deadLetter]))
          .get(scenario.topics.deadLetter)!
          .values(),
      ].flat();
      const letter = (reason: unknown, value: Buffer | null) =>
        `${String(reason)} ${value?.toString('utf8') ?? ''}`;
      expect(letters.length).toBeGreaterThanOrEqual(rejected.length);
      expect(
        new Set(letters.map((m) => letter(m.headers[DEAD_LETTER_HEADERS.reason], m.value))),
      ).toEqual(new Set(rejected.map((r) => letter(r.reason, r.value))));
    } finally {
      await rating.stop();
    }
  }, 120_000);
});
