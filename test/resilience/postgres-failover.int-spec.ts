import { generateEvents } from '@ranking/generator';
import { classifyFailure } from '@ranking/persistence';
import { PROBE_PATHS } from '@ranking/operations';
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

type Stored = { n: number };
const STORED = 'SELECT count(*)::int AS n FROM event_store';

/**
 * The rating service on a Patroni pair behind HAProxy (ADR 38): the primary's machine dies
 * mid-load (its Patroni and PostgreSQL SIGKILLed), Patroni promotes the standby, and the same
 * service process, whose DATABASE_URL names HAProxy, goes on there. Then the old primary rejoins
 * as standby (rewound if it had WAL the new primary never got) and a planned switchover moves
 * the primary back, under load again. The state must equal the offline replay, and no
 * `ranking.rating-changes` sequence number may be published twice with different content.
 * `loseTail`: replication is paused before the crash, so the standby lacks the primary's last
 * commits (what asynchronous replication may lose): Kafka must replay them.
 */
async function failoverUnderLoad(
  ha: PostgresHaPair,
  scenario: RatingScenario,
  { loseTail }: { loseTail: boolean },
): Promise<void> {
  // The production session (30 s and more) outlasts the outage: the member stays in its group,
  // no rebalance seeks it back to the (older) stored checkpoints, and its fetch position stays
  // past the commits the promotion lost. (The tests' usual 10 s may expire while the batch is
  // retried, and a rejoin would seek back by chance.)
  const rating = scenario.service({ KAFKA_SESSION_TIMEOUT_MS: '45000' });
  const ready = async () => probe(`${await rating.url()}${PROBE_PATHS.ready}`);
  rating.start();
  try {
    await waitFor(async () => (await ready()).status === 200, {
      timeout: 60_000,
      interval: 200,
      what: 'the service to be ready',
    });
    const pid = rating.status();
    const database = new URL(scenario.databaseUrl).pathname.slice(1);
    const storedNow = async () => (await scenario.db.query<Stored[]>(STORED))[0]!.n;

    // The first half in pieces, so the service folds it in several transactions; the crash
    // lands once some are committed, while another has written events and not committed.
    // `loseTail`: the standby's WAL receiver is stopped once the first piece is stored, before
    // the rest is produced, so that the primary commits batches the standby never gets.
    const half = Math.floor(lines.length / 2);
    const piece = 250;
    let endCut = () => {};
    let paused = 0;
    const standby: HaNode = (await ha.primary()) === 'node1' ? 'node2' : 'node1';
    if (loseTail) {
      await scenario.produce(lines.slice(0, piece));
      await waitFor(async () => (await storedNow()) >= 200, {
        timeout: 90_000,
        interval: 50,
        what: 'the first piece to be stored',
      });
      endCut = await ha.cutReplication(standby);
      paused = await storedNow();
    }
    const producing = (async () => {
      for (let i = loseTail ? piece : 0; i < half; i += piece)
        await scenario.produce(lines.slice(i, i + piece));
    })();
    let crashed: HaNode;
    try {
      await waitFor(
        async () => {
          const [row]: { stored: number; writing: number }[] = await scenario.db.query(
            `SELECT (SELECT count(*) FROM event_store)::int AS stored,
                    (SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid)
                      WHERE a.application_name = 'rating-service' AND l.granted
                        AND l.relation = 'event_store'::regclass
                        AND l.mode = 'RowExclusiveLock')::int AS writing`,
          );
          // With the standby paused: commits it will never get, acknowledged to the service.
          return row!.stored >= Math.max(200, paused + 100) && row!.writing > 0;
        },
        { timeout: 90_000, interval: 10, what: 'a consumer transaction writing events' },
      );
      const committed = await storedNow();
      crashed = await ha.crashPrimary();
      if (loseTail) {
        // What the standby holds, which the promotion keeps: the lost commits are missing.
        const kept = (await ha.queryNode<Stored>(standby, database, STORED))[0]!.n;
        expect(committed - kept).toBeGreaterThanOrEqual(100);
      }
    } finally {
      endCut();
    }
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
    // The consumer saw the store behind what it had committed and read the partitions again.
    if (loseTail) expect(rating.output).toContain('the store lost commits');

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
  } catch (error) {
    console.error(rating.outputTail(8000));
    throw error;
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
    () => failoverUnderLoad(pair!, world!, { loseTail: false }),
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

/**
 * Asynchronous replication, the standby's WAL receiver stopped before the crash, so the promoted
 * standby lacks acknowledged commits; the running service must replay them from Kafka. Before
 * the checkpoint guard refused a batch beyond its stored checkpoint (CheckpointGapError), the
 * running consumer stepped over the lost offsets: thousands of events never stored (ADR 38).
 */
describe('rating service across a lossy PostgreSQL promotion (asynchronous replication, real Kafka, a Patroni pair of its own)', () => {
  let pair: PostgresHaPair | undefined;
  let world: RatingScenario | undefined;
  beforeAll(async () => {
    pair = await PostgresHaPair.create({ synchronous: false });
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
    'when the primary dies with commits the standby never got, then Kafka replays them on the new primary: the state equals the replay and no rating-changes seq names different content',
    () => failoverUnderLoad(pair!, world!, { loseTail: true }),
    900_000,
  );
});
