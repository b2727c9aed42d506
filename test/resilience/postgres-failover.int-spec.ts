import { generateEvents } from '@ranking/generator';
import { PROBE_PATHS } from '@ranking/operations';
import { classifyFailure } from '@ranking/persistence';
import { ladderRegistry } from '@ranking/rating';
import {
  createMigratedDatabase,
  type HaNode,
  PostgresHaPair,
  probe,
  RatingScenario,
  readTopics,
  waitFor,
} from '@ranking/testing';

const ladders = ladderRegistry();
/** Games of every ladder, with corrections, period closes and a share of bad lines. */
const lines = [
  ...generateEvents({
    seed: 53,
    events: 4000,
    closes: true,
    badShare: 0.02,
    correctionShare: 0.02,
    days: 10,
  }),
];

/**
 * The rating service on a Patroni pair behind HAProxy (ADR 38): the primary's machine dies
 * mid-load (its Patroni and PostgreSQL SIGKILLed), Patroni promotes the standby, and the same
 * service process, whose DATABASE_URL names HAProxy, goes on there. Then the old primary rejoins
 * as standby (rewound if it had WAL the new primary never got) and a planned switchover moves
 * the primary back, under load again. The state must equal the offline replay, and no
 * `ranking.rating-changes` sequence number may be published twice with different content.
 */
async function failoverUnderLoad(ha: PostgresHaPair, scenario: RatingScenario): Promise<void> {
  const rating = scenario.service();
  const ready = async () => probe(`${await rating.url()}${PROBE_PATHS.ready}`);
  rating.start();
  try {
    await waitFor(async () => (await ready()).status === 200, {
      timeout: 60_000,
      interval: 200,
      what: 'the service to be ready',
    });
    const pid = rating.status();

    // The first half in pieces, so the service folds it in several transactions; the crash
    // lands once some are committed, while another has written events and not committed.
    const half = Math.floor(lines.length / 2);
    const producing = (async () => {
      for (let i = 0; i < half; i += 250) await scenario.produce(lines.slice(i, i + 250));
    })();
    await waitFor(
      async () => {
        const [row]: { stored: number; writing: number }[] = await scenario.db.query(
          `SELECT (SELECT count(*) FROM event_store)::int AS stored,
                  (SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid)
                    WHERE a.application_name = 'rating-service' AND l.granted
                      AND l.relation = 'event_store'::regclass
                      AND l.mode = 'RowExclusiveLock')::int AS writing`,
        );
        return row!.stored >= 200 && row!.writing > 0;
      },
      { timeout: 90_000, interval: 10, what: 'a consumer transaction writing events' },
    );
    const crashed = await ha.crashPrimary();
    await producing;
    // The next quarter arrives while there is no primary.
    const threeQuarters = Math.floor((lines.length * 3) / 4);
    await scenario.produce(lines.slice(half, threeQuarters));

    // Patroni promotes the standby once the dead leader's key expires (ttl 20 s).
    const promoted = await waitFor(
      async () => {
        const now = await ha.primary();
        return now !== null && now !== crashed ? now : undefined;
      },
      { timeout: 120_000, interval: 500, what: 'the standby to be promoted' },
    );
    expect(promoted).not.toBe(crashed);
    await waitFor(() => scenario.drained(), {
      timeout: 180_000,
      interval: 500,
      what: 'the backlog to drain on the new primary',
    });
    await waitFor(async () => (await ready()).status === 200, {
      timeout: 60_000,
      interval: 200,
      what: 'readiness after the failover',
    });
    // The same process throughout: it found the new primary through HAProxy by itself.
    expect(rating.status()).toBe(pid);

    // Switch-back as the runbook does it: the old primary rejoins as standby (pg_rewind when
    // it had WAL the new one never got), then a planned switchover under load.
    await ha.startNode(crashed);
    const rest = (async () => {
      for (let i = threeQuarters; i < lines.length; i += 250)
        await scenario.produce(lines.slice(i, Math.min(i + 250, lines.length)));
    })();
    await ha.switchover();
    await rest;
    expect(await ha.primary()).toBe(crashed);
    await waitFor(() => scenario.drained(), {
      timeout: 180_000,
      interval: 500,
      what: 'the backlog to drain after the switch-back',
    });
    expect(rating.status()).toBe(pid);

    // Every accepted event stored once; the state equal to the replay of the stream and of
    // the stored log; the export the same text as the offline replay's.
    await scenario.expectSameAsReplay(lines);
    expect(
      await scenario.db.query(
        'SELECT event_id, count(*)::int AS n FROM event_store GROUP BY event_id HAVING count(*) > 1',
      ),
    ).toEqual([]);
    await scenario.expectExportSameAsReplayText(lines);
    expect(rating.output).not.toContain('set aside as unprocessable');

    // The rating-changes chain: a message published again (the outbox is at least once, and a
    // lost commit's messages are made again from Kafka's replay) is the same text; a seq never
    // names two different messages of a ladder; each ladder's last seq in the store was published.
    await waitFor(
      async () => (await scenario.db.query('SELECT count(*) AS n FROM outbox'))[0].n === '0',
      { timeout: 60_000, what: 'the outbox to empty' },
    );
    const published = [
      ...(await readTopics(scenario.kafka, [scenario.topics.ratingChanges]))
        .get(scenario.topics.ratingChanges)!
        .values(),
    ].flat();
    const bySeq = new Map<string, Set<string>>();
    for (const message of published) {
      const { ladder, seq } = JSON.parse(message.value!.toString()) as {
        ladder: string;
        seq: number;
      };
      const place = `${ladder}#${seq}`;
      bySeq.set(place, (bySeq.get(place) ?? new Set()).add(message.value!.toString()));
    }
    expect(published.length).toBeGreaterThan(0);
    expect([...bySeq].filter(([, texts]) => texts.size > 1).map(([place]) => place)).toEqual([]);
    const counters: { ladder: string; last_message_seq: string }[] = await scenario.db.query(
      'SELECT ladder, last_message_seq FROM ladders WHERE last_message_seq > 0',
    );
    expect(counters.length).toBeGreaterThan(0);
    for (const { ladder, last_message_seq } of counters)
      expect(bySeq.has(`${ladder}#${last_message_seq}`)).toBe(true);
  } finally {
    await rating.stop();
  }
}

describe('rating service across a PostgreSQL failover (real Kafka, a Patroni pair of its own, synchronous standby)', () => {
  let pair: PostgresHaPair | undefined;
  let world: RatingScenario | undefined;
  beforeAll(async () => {
    pair = await PostgresHaPair.create();
    const server = pair.url();
    world = new RatingScenario(ladders, { database: () => createMigratedDatabase(server) });
    await world.setUp();
  }, 300_000);
  afterAll(async () => {
    try {
      await world?.tearDown();
    } finally {
      await pair?.destroy();
    }
  }, 120_000);

  it(
    'when the primary is SIGKILLed mid-load, then the synchronous standby takes over with every acknowledged commit, the service goes on without a restart, loses nothing and reuses no rating-changes seq; and it goes on across the switch-back',
    () => failoverUnderLoad(pair!, world!),
    900_000,
  );

  it("a write that reaches a standby (the proxy's second before it sees a switchover) fails as transient, not as the message's fault", async () => {
    const ha = pair!;
    const standby: HaNode = (await ha.primary()) === 'node1' ? 'node2' : 'node1';
    const error = (await ha
      .queryNode(standby, 'postgres', 'CREATE TABLE refused (a int)')
      .catch((e: unknown) => e)) as { code?: string };
    expect(error.code).toBe('25006');
    expect(classifyFailure(error)).toBe('transient');
  });
});
