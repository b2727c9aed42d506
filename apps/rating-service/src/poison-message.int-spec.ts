import { DEAD_LETTER_HEADERS, UNPROCESSABLE } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import { exportStandings } from '@ranking/persistence';
import { ladderRegistry, ReplayEngine } from '@ranking/rating';
import { collectText, RatingScenario, readTopics, waitFor } from '@ranking/testing';

const ladders = ladderRegistry();

/**
 * The poison-message path of the built service against real faults: a PostgreSQL trigger on
 * the test database raises for one marked event (deterministic: every try fails) and fails
 * another with a serialization error a few times (transient: it must be applied, never
 * dead-lettered).
 */
describe('rating service: a message that cannot be applied (real Kafka and PostgreSQL)', () => {
  const world = new RatingScenario(ladders);
  beforeAll(() => world.setUp());
  afterAll(() => world.tearDown());

  const lines = [
    ...generateEvents({
      seed: 61,
      events: 1500,
      closes: true,
      badShare: 0.03,
      correctionShare: 0.02,
      days: 6,
    }),
  ];
  const games: string[] = [];
  const offline = new ReplayEngine(ladders);
  for (const line of lines) {
    const result = offline.ingestLine(line);
    if (result.kind === 'accepted' && result.event.type === 'game.finished')
      games.push(result.event.id);
  }
  const poison = games[400]!;
  const flaky = games[900]!;
  const poisonLine = lines.find((l) => l.includes(`"id":${JSON.stringify(poison)}`))!;

  it('given a deterministic fault on one event and a transient one on another, then only the first is dead-lettered as unprocessable and everything else is applied once', async () => {
    await world.db.query(`
      CREATE SEQUENCE flaky_faults;
      CREATE FUNCTION injected_faults() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.event_id = ${literal(poison)} THEN
          RAISE EXCEPTION 'injected fault for %', NEW.event_id USING ERRCODE = 'P0001';
        END IF;
        -- nextval is not rolled back with the failed transaction: the first four tries fail.
        IF NEW.event_id = ${literal(flaky)} AND nextval('flaky_faults') <= 4 THEN
          RAISE EXCEPTION 'injected serialization failure' USING ERRCODE = '40001';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER injected_faults BEFORE INSERT ON event_store
        FOR EACH ROW EXECUTE FUNCTION injected_faults();`);
    const rating = world.service();
    rating.start();
    try {
      await world.produce(lines);
      await waitFor(() => world.drained(), {
        timeout: 90_000,
        interval: 250,
        what: 'every partition to drain past the poison message',
      });
      expect(rating.output).toContain('set aside as unprocessable');
      expect(rating.output).toContain('(transient, attempt');

      // Everything but the poison message is applied, once: the state is the replay's without it.
      await world.expectSameAsReplay(lines.filter((l) => l !== poisonLine));
      const flakyRows = await world.db.query('SELECT 1 FROM event_store WHERE event_id = $1', [
        flaky,
      ]);
      expect(flakyRows).toHaveLength(1);

      const unprocessable = await world.db.query(
        `SELECT event_id, detail, value, topic, partition, "offset" FROM rejected_messages WHERE reason = $1`,
        [UNPROCESSABLE],
      );
      expect(unprocessable).toHaveLength(1);
      // The log says where the message lies, as fields an operator can search on.
      expect(rating.logLines).toContainEqual(
        expect.objectContaining({
          level: 'error',
          context: 'RatingConsumer',
          topic: unprocessable[0].topic,
          partition: unprocessable[0].partition,
          offset: String(unprocessable[0].offset),
          error: expect.stringContaining('injected fault for'),
        }),
      );
      expect(unprocessable[0].event_id).toBe(poison);
      expect(unprocessable[0].detail).toContain('injected fault for');
      expect(Buffer.from(unprocessable[0].value).toString('utf8')).toBe(poisonLine);
      const live = JSON.parse(
        await collectText(await exportStandings(world.sql, ladders, null)),
      ) as { rejected: { id: string; reason: string }[] };
      expect(live.rejected).toEqual(
        expect.arrayContaining([{ id: poison, reason: UNPROCESSABLE }]),
      );

      // The dead letter is the message unchanged, with the reason and the error.
      const rejectedCount = Number(
        (await world.db.query('SELECT count(*) AS n FROM rejected_messages'))[0].n,
      );
      await waitFor(
        async () => (await world.db.query('SELECT count(*) AS n FROM outbox'))[0].n === '0',
        { what: 'the outbox to empty' },
      );
      const dead = [
        ...(await readTopics(world.kafka, [world.topics.deadLetter]))
          .get(world.topics.deadLetter)!
          .values(),
      ].flat();
      expect(dead).toHaveLength(rejectedCount);
      const letter = dead.find((m) => m.headers[DEAD_LETTER_HEADERS.reason] === UNPROCESSABLE);
      expect(letter?.value?.toString('utf8')).toBe(poisonLine);
      expect(letter?.headers[DEAD_LETTER_HEADERS.detail]).toContain('injected fault for');
    } finally {
      await rating.stop();
    }
  }, 180_000);

  it('when every message is delivered again (checkpoints lost), then nothing changes', async () => {
    const before = await snapshot();
    await world.db.query('DELETE FROM consumer_offsets');
    // Kafka's committed offsets are only a hint, but with no stored checkpoint they decide.
    const admin = world.kafka.admin();
    await admin.connect();
    await admin.resetOffsets({
      groupId: `${world.prefix}rating-service`,
      topic: world.topics.ladderEvents,
      earliest: true,
    });
    await admin.disconnect();
    const rating = world.service();
    rating.start();
    try {
      await waitFor(() => world.drained(), {
        timeout: 90_000,
        interval: 250,
        what: 'the redelivered stream to drain',
      });
      expect(await snapshot()).toEqual(before);
    } finally {
      await rating.stop();
    }
  }, 180_000);

  /** The live state and the rejections, as the export gives them. */
  async function snapshot() {
    const rows = await world.db.query(
      'SELECT reason, count(*)::int AS n FROM rejected_messages GROUP BY reason ORDER BY reason',
    );
    return {
      standings: await collectText(await exportStandings(world.sql, ladders, null)),
      events: Number((await world.db.query('SELECT count(*) AS n FROM event_store'))[0].n),
      rejected: rows,
    };
  }
});

const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`;
