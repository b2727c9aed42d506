import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DEAD_LETTER_HEADERS, UNPROCESSABLE } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import { PRINCIPALS } from '@ranking/kafka';
import { ladderRegistry, ReplayEngine } from '@ranking/rating';
import {
  grantAcls,
  jsonLines,
  principalEnv,
  RatingScenario,
  readTopics,
  revokeAcls,
  type ServiceProcess,
  type TestProducer,
  topicEnds,
  waitFor,
} from '@ranking/testing';

const execute = promisify(execFile);
const ladders = ladderRegistry();

/** What a run of the CLI printed and how it ended. */
interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The report redrive prints on stdout. */
interface Report {
  readonly reason: string;
  readonly since: string | null;
  readonly dryRun: boolean;
  readonly skipped: {
    readonly alreadyRedriven: number;
    readonly beforeSince: number;
    readonly otherReasons: Record<string, number>;
  };
  readonly summary?: Record<string, number>;
  readonly messages: {
    readonly eventId: string;
    readonly to: { topic: string; key: string | null };
    readonly outcome?: { status: string; why: string };
  }[];
}

/**
 * `ranking redrive` against the real broker and database, the CLI as the `ops` principal on
 * the SASL listener with the system's ACLs (ADR 31). A fault injected into the rating service's
 * event store (a trigger, as the poison-message test does) sets one game aside as
 * `unprocessable`; a game the intake set aside is on the dead-letter topic as the intake writes
 * them, naming the producer whose topic it came on. Once the fault is removed, redrive sends each back the way it came and both end applied.
 */
describe('ranking redrive (real Kafka and PostgreSQL, as ops)', () => {
  const world = new RatingScenario(ladders);
  let rating: ServiceProcess;
  let intake: ServiceProcess;
  /** The producer whose topic the intake's dead letter came on (ADR 39). */
  let gs: TestProducer;

  const lines = [
    ...generateEvents({
      seed: 73,
      events: 400,
      closes: false,
      badShare: 0.02,
      days: 2,
      idPrefix: 'gs:',
    }),
  ];
  const games: string[] = [];
  for (const line of lines) {
    const result = new ReplayEngine(ladders).ingestLine(line);
    if (result.kind === 'accepted' && result.event.type === 'game.finished')
      games.push(result.event.id);
  }
  const lineOf = (id: string) => lines.find((l) => l.includes(`"id":${JSON.stringify(id)}`))!;
  const poison = games[150]!;
  const viaIntake = games[250]!;
  const ladderOf = (id: string) => (JSON.parse(lineOf(id)) as { ladder: string }).ladder;
  /** Between the rating service's dead letters and the intake's. */
  let between = '';

  const redrive = async (...args: string[]): Promise<Run> => {
    try {
      const { stdout, stderr } = await execute(
        process.execPath,
        ['bin/ranking.js', 'redrive', ...args],
        {
          env: {
            ...process.env,
            ...principalEnv(PRINCIPALS.ops),
            KAFKA_TOPIC_PREFIX: world.prefix,
            DATABASE_URL: world.databaseUrl,
            LOG_LEVEL: 'info',
          },
        },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  const report = (run: Run) => JSON.parse(run.stdout) as Report;
  const ends = async () => ({
    ladderLog: [...(await topicEnds(world.kafka, world.topics.ladderEvents)).values()],
    intake: [...(await topicEnds(world.kafka, gs.topic)).values()],
  });
  const marks = async () => {
    const [row] = await world.db.query<{ n: string }[]>(
      'SELECT count(*) AS n FROM redriven_dead_letters',
    );
    return Number(row!.n);
  };
  const stored = async (id: string) =>
    (await world.db.query<unknown[]>('SELECT 1 FROM event_store WHERE event_id = $1', [id])).length;

  beforeAll(async () => {
    await world.setUp();
    gs = await world.addProducer('gs');
    await grantAcls(world.prefix, [gs]);
    rating = world.service();
    intake = world.intake();
    // The fault: the event store refuses one game (deterministic, so it is set aside).
    await world.db.query(`
      CREATE FUNCTION injected_fault() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.event_id = '${poison.replace(/'/g, "''")}' THEN
          RAISE EXCEPTION 'injected fault for %', NEW.event_id USING ERRCODE = 'P0001';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER injected_fault BEFORE INSERT ON event_store
        FOR EACH ROW EXECUTE FUNCTION injected_fault();`);
    rating.start();
    intake.start();
    await world.produce(lines.filter((l) => l !== lineOf(viaIntake)));
    await waitFor(() => world.drained(), {
      timeout: 90_000,
      interval: 250,
      what: 'the ladder log to drain past the poison message',
    });
    await waitFor(
      async () => (await world.db.query('SELECT count(*) AS n FROM outbox'))[0].n === '0',
      { what: 'the dead letters to be published' },
    );
    const letters = [
      ...(await readTopics(world.kafka, [world.topics.deadLetter]))
        .get(world.topics.deadLetter)!
        .values(),
    ].flat();
    expect(letters.filter((m) => m.headers[DEAD_LETTER_HEADERS.reason] === UNPROCESSABLE)).toEqual([
      expect.objectContaining({ value: Buffer.from(lineOf(poison)) }),
    ]);
    // The intake's dead letter, as it writes one (a defect in its decision), after them all.
    between = new Date(Date.now()).toISOString();
    await waitFor(() => Date.now() > Date.parse(between) + 5, { what: 'a later millisecond' });
    const producer = world.kafka.producer();
    await producer.connect();
    await producer.send({
      topic: world.topics.deadLetter,
      messages: [
        {
          key: 'a-game-server-key',
          value: lineOf(viaIntake),
          headers: {
            [DEAD_LETTER_HEADERS.reason]: UNPROCESSABLE,
            [DEAD_LETTER_HEADERS.detail]: 'TypeError: injected defect of the admission',
            [DEAD_LETTER_HEADERS.consumer]: 'intake-service',
            [DEAD_LETTER_HEADERS.producer]: 'gs',
          },
        },
      ],
    });
    await producer.disconnect();
  }, 180_000);

  afterAll(async () => {
    await rating?.stop();
    await intake?.stop();
    await revokeAcls(world.prefix, [gs]);
    await world.tearDown();
  });

  it('refuses a reason other than unprocessable with a clear message, sending nothing', async () => {
    const before = await ends();
    const run = await redrive('--reason', 'unknown-ladder');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(jsonLines(run.stderr).at(-1)).toMatchObject({
      level: 'error',
      command: 'redrive',
      exitCode: 1,
      message: expect.stringMatching(
        /^--reason unknown-ladder: only unprocessable dead letters are sent again\. A dead letter of reason "unknown-ladder" is the event's own fault/,
      ),
    });
    expect(await ends()).toEqual(before);
    expect(await marks()).toBe(0);
  });

  it('--dry-run lists each unprocessable dead letter and where it would go, and changes nothing; --since keeps the later ones', async () => {
    const before = await ends();
    const run = await redrive('--reason', 'unprocessable', '--dry-run');
    expect(run.code).toBe(0);
    const listed = report(run);
    expect(listed).toMatchObject({ reason: UNPROCESSABLE, dryRun: true, since: null });
    expect(Object.keys(listed.skipped.otherReasons).length).toBeGreaterThan(0);
    expect(listed.skipped.otherReasons).not.toHaveProperty(UNPROCESSABLE);
    expect(listed.messages).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          eventId: poison,
          rejectedBy: 'rating-service',
          detail: expect.stringContaining('injected fault for'),
          to: { topic: world.topics.ladderEvents, key: ladderOf(poison) },
        }),
        expect.objectContaining({
          eventId: viaIntake,
          rejectedBy: 'intake-service',
          to: { topic: gs.topic, key: 'a-game-server-key' },
        }),
      ]),
    );
    expect(listed.messages).toHaveLength(2);
    for (const m of listed.messages) expect(m).not.toHaveProperty('outcome');

    const later = report(
      await redrive('--reason', 'unprocessable', '--dry-run', '--since', between),
    );
    expect(later.messages.map((m) => m.eventId)).toEqual([viaIntake]);
    expect(later.skipped.beforeSince).toBe(1);

    expect(await ends()).toEqual(before);
    expect(await marks()).toBe(0);
    expect(await stored(poison)).toBe(0);
  }, 60_000);

  it("while the fault is still there, the copy is rejected again with its code (exit 3); the intake's is applied", async () => {
    const run = await redrive('--reason', 'unprocessable', '--timeout', '90');
    expect(run.code).toBe(3);
    const done = report(run);
    expect(done.summary).toEqual({ applied: 1, repeat: 0, rejected: 1, pending: 0 });
    expect(done.messages).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          eventId: poison,
          to: expect.objectContaining({ topic: world.topics.ladderEvents }),
          outcome: {
            status: 'rejected',
            code: UNPROCESSABLE,
            by: 'rating-service',
            why: 'rejected again by rating-service: unprocessable',
          },
        }),
        expect.objectContaining({
          eventId: viaIntake,
          to: expect.objectContaining({ topic: gs.topic }),
          outcome: expect.objectContaining({ status: 'applied' }),
        }),
      ]),
    );
    expect(await stored(poison)).toBe(0);
    expect(await stored(viaIntake)).toBe(1);
    expect(await marks()).toBe(2);
    // The copy's own dead letter, published: the next run finds it.
    await waitFor(
      async () =>
        (await world.db.query<{ n: string }[]>('SELECT count(*) AS n FROM outbox'))[0]!.n === '0',
      { what: 'the new dead letter to be published' },
    );
  }, 180_000);

  it('once the fault is removed, the newest dead letter of the poison message goes back onto the ladder log under its ladder and ends applied; a second run sends nothing', async () => {
    await world.db.query('DROP TRIGGER injected_fault ON event_store');
    // Only the poison message's newest dead letter is left to send: the first one is marked.
    const run = await redrive('--reason', 'unprocessable', '--timeout', '90');
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    const done = report(run);
    expect(done.summary).toEqual({ applied: 1, repeat: 0, rejected: 0, pending: 0 });
    expect(done.skipped.alreadyRedriven).toBe(2);
    expect(done.messages).toEqual([
      expect.objectContaining({
        eventId: poison,
        to: {
          topic: world.topics.ladderEvents,
          key: ladderOf(poison),
          partition: expect.any(Number),
          offset: expect.any(String),
        },
        outcome: expect.objectContaining({ status: 'applied' }),
      }),
    ]);
    expect(await stored(poison)).toBe(1);
    expect(await stored(viaIntake)).toBe(1);
    expect(await marks()).toBe(3);
    // Every accepted event of the stream is stored once, and the live state is the log's.
    await waitFor(() => world.drained(), { timeout: 60_000, what: 'the ladder log to drain' });
    await world.expectLiveSameAsLog();

    const before = await ends();
    const again = await redrive('--reason', 'unprocessable');
    expect(again.code).toBe(0);
    expect(report(again)).toMatchObject({ messages: [], skipped: { alreadyRedriven: 3 } });
    expect(await ends()).toEqual(before);
  }, 180_000);

  it('--include-redriven sends them again, and the rating service applies nothing twice (idempotent by event id)', async () => {
    const events = await world.storedEvents();
    const standings = await world.expectLiveSameAsLog();
    const run = await redrive('--reason', 'unprocessable', '--include-redriven', '--timeout', '90');
    expect(run.code).toBe(0);
    const done = report(run);
    expect(done.summary).toEqual({ applied: 0, repeat: 2, rejected: 0, pending: 0 });
    expect(done.messages.find((m) => m.eventId === poison)?.outcome?.why).toMatch(
      /rating service has passed the copy/,
    );
    await waitFor(() => world.drained(), { timeout: 60_000, what: 'the ladder log to drain' });
    await waitFor(() => world.intakeDrained(gs), { timeout: 60_000, what: 'the intake to drain' });
    await waitFor(() => world.drained(), { timeout: 60_000, what: 'the ladder log to drain' });
    expect(await world.storedEvents()).toBe(events);
    expect(await world.expectLiveSameAsLog()).toEqual(standings);
    expect(await marks()).toBe(3);
  }, 180_000);

  it('with the rating service stopped, waits as long as asked, says what is still pending and exits 3', async () => {
    await rating.stop();
    const run = await redrive('--reason', 'unprocessable', '--include-redriven', '--timeout', '3');
    expect(run.code).toBe(3);
    const done = report(run);
    expect(done.summary).toEqual({ applied: 0, repeat: 1, rejected: 0, pending: 1 });
    expect(done.messages.find((m) => m.eventId === poison)?.outcome).toEqual({
      status: 'pending',
      why: 'the rating service has not reached it yet',
    });
    expect(jsonLines(run.stderr)).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        context: 'redrive',
        message: expect.stringMatching(
          /^timed out after 3 s: 1 of 2 messages sent again are still pending/,
        ),
      }),
    );
  }, 60_000);
});
