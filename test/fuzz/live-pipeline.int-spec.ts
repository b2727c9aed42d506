import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { DEAD_LETTER_HEADERS, parseEvent } from '@ranking/contracts';
import { topicLayout } from '@ranking/kafka';
import { exportStandings } from '@ranking/persistence';
import { type IngestResult, ladderRegistry, ReplayEngine } from '@ranking/rating';
import {
  collectText,
  MaintenanceScenario,
  readTopics,
  type ServiceProcess,
  type TopicMessage,
  topicEnds,
  waitFor,
} from '@ranking/testing';
import { FUZZ_KINDS, type FuzzKind, type FuzzMessage, planMessages } from './hostile-messages.js';

/**
 * The live pipeline against a seeded mix of valid and hostile messages: the built rating
 * service (and the maintenance service beside it) on the real broker and database must stay
 * up, drain every partition, account for every message, reject every hostile one by
 * validation (never `unprocessable`), dead-letter each rejection, and end in the state the
 * offline replay of the same bytes gives.
 *
 * Replay a run with RANKING_FUZZ_SEED=<seed> (the seed is in the suite's name and every failure);
 * RANKING_FUZZ_MESSAGES (default 3000) sets the size and RANKING_FUZZ_KINDS (comma-separated, of
 * FUZZ_KINDS) narrows the hostile kinds to find which one a failure needs.
 */
const SEED =
  process.env.RANKING_FUZZ_SEED !== undefined && process.env.RANKING_FUZZ_SEED !== ''
    ? Number(process.env.RANKING_FUZZ_SEED)
    : Math.floor(Math.random() * 2 ** 31);
const MESSAGES = Number(process.env.RANKING_FUZZ_MESSAGES ?? 3000);
const DRAIN_TIMEOUT = Number(process.env.RANKING_FUZZ_DRAIN_MS ?? 60_000);
const KINDS = process.env.RANKING_FUZZ_KINDS
  ? new Set(
      process.env.RANKING_FUZZ_KINDS.split(',').map((k) => {
        if (!(FUZZ_KINDS as readonly string[]).includes(k))
          throw new Error(`RANKING_FUZZ_KINDS: ${k} is not one of ${FUZZ_KINDS.join(', ')}`);
        return k as FuzzKind;
      }),
    )
  : undefined;
const ladders = ladderRegistry();
const RATING = 'rating-service';
const MAINTENANCE = 'maintenance-service';

/** At most this many lines of each list of differences in a failure. */
const SHOWN = 15;

const digest = (bytes: Buffer | null) =>
  createHash('sha1')
    .update(bytes ?? Buffer.alloc(0))
    .digest('hex');

/** A message's bytes for a human: text when it is UTF-8, else hex. */
function preview(value: Buffer | null): string {
  if (value === null) return 'null value';
  if (value.length === 0) return 'empty value';
  const text = value.toString('utf8');
  if (Buffer.from(text, 'utf8').equals(value)) {
    const shown = JSON.stringify(text.slice(0, 160));
    return text.length > 160 ? `${shown}… (${text.length} chars)` : shown;
  }
  return `not UTF-8: hex ${value.subarray(0, 80).toString('hex')}${value.length > 80 ? `… (${value.length} bytes)` : ''}`;
}

/** U+0000 or an unpaired surrogate: what a PostgreSQL json value cannot hold. */
const UNSTORABLE_TEXT = /\u0000|[\ud800-\udfff]/u;

/** Why the outcome of a message (what the service writes for it) cannot be stored, if it cannot. */
function unstorable(result: IngestResult): string | null {
  switch (result.kind) {
    case 'accepted': {
      try {
        JSON.stringify(result.event);
      } catch (error) {
        return `the event does not serialize (${(error as Error).message})`;
      }
      const stack: unknown[] = [result.event];
      while (stack.length > 0) {
        const node = stack.pop();
        if (typeof node === 'string' && UNSTORABLE_TEXT.test(node))
          return `${JSON.stringify(node).slice(0, 60)} in the event (json column)`;
        if (typeof node === 'object' && node !== null)
          for (const [k, v] of Object.entries(node)) stack.push(k, v);
      }
      return null;
    }
    case 'rejected':
      // Text columns take an unpaired surrogate (the driver writes U+FFFD for it), not U+0000.
      if (result.id?.includes('\u0000')) return 'U+0000 in the rejected id';
      if (result.detail.includes('\u0000')) return 'U+0000 in the rejection detail';
      return null;
    case 'duplicate':
    case 'skipped':
      return null;
  }
}

/** Elements of `a` missing from `b` and of `b` missing from `a`, counting repeats. */
function multisetDiff(
  a: readonly string[],
  b: readonly string[],
): { onlyA: string[]; onlyB: string[] } {
  const counts = new Map<string, number>();
  for (const x of a) counts.set(x, (counts.get(x) ?? 0) + 1);
  for (const x of b) counts.set(x, (counts.get(x) ?? 0) - 1);
  const onlyA: string[] = [];
  const onlyB: string[] = [];
  for (const [x, n] of counts) {
    for (let i = 0; i < n; i++) onlyA.push(x);
    for (let i = 0; i < -n; i++) onlyB.push(x);
  }
  return { onlyA: onlyA.sort(), onlyB: onlyB.sort() };
}

function listed(title: string, lines: readonly string[], most = SHOWN): string {
  const shown = lines.slice(0, most).map((l) => `  ${l}`);
  if (lines.length > most) shown.push(`  … and ${lines.length - most} more`);
  return `${title} (${lines.length}):\n${shown.join('\n')}`;
}

describe(`live pipeline fuzz (seed ${SEED})`, () => {
  const scenario = new MaintenanceScenario(ladders);
  const world = scenario.world;
  beforeAll(() => scenario.setUp());
  afterAll(() => scenario.tearDown());

  it('given thousands of valid and hostile messages, when the services drain them, then they stay up, account for every message and end in the offline replay of the same bytes', async () => {
    const started = Date.now();
    const topic = world.topics.ladderEvents;
    const partitions = topicLayout(world.prefix).find((t) => t.topic === topic)!.numPartitions!;
    const plan = planMessages({ seed: SEED, total: MESSAGES, partitions, kinds: KINDS });
    console.log(
      `live pipeline fuzz: seed ${SEED} (replay with RANKING_FUZZ_SEED=${SEED}), ` +
        `${plan.messages.length} messages on ${partitions} partitions, ${plan.dropped} dropped for an id taken on another partition`,
    );

    const rating = world.service();
    const maintenance = scenario.process();
    const services: [string, ServiceProcess][] = [
      [RATING, rating],
      [MAINTENANCE, maintenance],
    ];
    const tails = () =>
      services
        .map(([name, s]) => `--- ${name}: ${s.status()}; its output's tail:\n${s.outputTail()}`)
        .join('\n');
    /** Each test message by where it landed: `partition@offset`. */
    const landed = new Map<string, FuzzMessage>();
    const offsetOf = new Map<number, number>();
    const at = (partition: number, offset: number) => {
      const m = landed.get(`${partition}@${offset}`);
      return m
        ? `${m.kind} #${m.index} at ${partition}@${offset}: ${preview(m.value)}`
        : `${partition}@${offset}, not a message of the test (the maintenance service's)`;
    };
    const fail = (what: string) =>
      new Error(`[seed ${SEED}; replay with RANKING_FUZZ_SEED=${SEED}] ${what}\n${tails()}`);

    try {
      // Producing while they run, as in production: wait until both consume.
      rating.start();
      maintenance.start();
      const up = await waitFor(
        () =>
          services.some(([, s]) => !s.alive())
            ? 'exited'
            : services.every(([, s]) => s.output.includes('consuming')) && 'consuming',
        { timeout: 30_000, interval: 100, what: 'both services to consume' },
      ).catch(() => 'timed out');
      if (up !== 'consuming') throw fail(`the services did not start consuming (${up})`);

      const producer = world.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
      await producer.connect();
      try {
        let chunk: FuzzMessage[] = [];
        let bytes = 0;
        const send = async () => {
          if (chunk.length === 0) return;
          const sent = await producer.send({
            topic,
            acks: -1,
            messages: chunk.map((m) => ({ key: m.key, value: m.value, partition: m.partition })),
          });
          // One send appends each partition's messages together, in order, from its base offset.
          const next = new Map(sent.map((r) => [r.partition, Number(r.baseOffset)]));
          for (const m of chunk) {
            const offset = next.get(m.partition)!;
            next.set(m.partition, offset + 1);
            landed.set(`${m.partition}@${offset}`, m);
            offsetOf.set(m.index, offset);
          }
          chunk = [];
          bytes = 0;
        };
        for (const m of plan.messages) {
          if (chunk.length >= 200 || bytes + (m.value?.length ?? 0) > 400_000) await send();
          chunk.push(m);
          bytes += m.value?.length ?? 0;
        }
        await send();
      } finally {
        await producer.disconnect();
      }

      // Settled: both consumers' checkpoints at every partition's end, and both outboxes empty
      // (the dead letters and the maintenance service's penalties published).
      const admin = world.kafka.admin();
      await admin.connect();
      let pending: string[] = [];
      let stuck: { partition: number; next: number }[] = [];
      /**
       * Test messages past a stuck checkpoint whose outcome, as the replay decides it, holds what
       * PostgreSQL cannot store (a batch fails as one, so the first such is the likeliest cause).
       */
      const suspects = (): string[] => {
        const engine = new ReplayEngine(ladders);
        const lines: string[] = [];
        const byPartition = [...landed.values()].sort(
          (a, b) => a.partition - b.partition || a.index - b.index,
        );
        for (const m of byPartition) {
          const result = engine.ingestParsed(parseEvent(m.value ?? ''));
          const offset = offsetOf.get(m.index)!;
          if (!stuck.some((s) => s.partition === m.partition && offset >= s.next)) continue;
          const why = unstorable(result);
          if (why) lines.push(`${why}: ${result.kind}: ${at(m.partition, offset)}`);
        }
        return lines;
      };
      const settled = async (): Promise<boolean> => {
        const outbox = Number((await world.db.query('SELECT count(*) AS n FROM outbox'))[0].n);
        const maintenanceOutbox = Number(
          (await world.db.query('SELECT count(*) AS n FROM maintenance_outbox'))[0].n,
        );
        const ends = await admin.fetchTopicOffsets(topic);
        const rows: { consumer: string; partition: number; next_offset: string }[] =
          await world.db.query(
            'SELECT consumer, partition, next_offset FROM consumer_offsets WHERE topic = $1',
            [topic],
          );
        const stored = new Map(
          rows.map((r) => [`${r.consumer}/${r.partition}`, Number(r.next_offset)]),
        );
        pending = [];
        stuck = [];
        for (const consumer of [RATING, MAINTENANCE])
          for (const e of ends) {
            const end = Number(e.high);
            const next = stored.get(`${consumer}/${e.partition}`);
            if (end > 0 && next !== end) stuck.push({ partition: e.partition, next: next ?? 0 });
            if (end > 0 && next !== end)
              pending.push(
                `${consumer} partition ${e.partition}: checkpoint ${next ?? 'none'} of ${end}; next message: ${at(e.partition, next ?? 0)}`,
              );
          }
        if (outbox > 0) pending.push(`${RATING}: ${outbox} outbox rows unpublished`);
        if (maintenanceOutbox > 0)
          pending.push(`${MAINTENANCE}: ${maintenanceOutbox} outbox rows unpublished`);
        return pending.length === 0;
      };
      let outcome: string;
      try {
        outcome = await waitFor(
          async () =>
            services.some(([, s]) => !s.alive()) ? 'exited' : (await settled()) && 'drained',
          { timeout: DRAIN_TIMEOUT, interval: 250, what: 'every partition to drain' },
        );
      } catch (error) {
        outcome = (error as Error).message;
      } finally {
        await admin.disconnect();
      }
      if (outcome !== 'drained')
        throw fail(
          `${outcome === 'exited' ? 'a service exited before draining' : `not drained: ${outcome}`}\n` +
            `${listed('not drained', pending, Infinity)}\n${listed('suspects: past the checkpoints, messages whose outcome holds what PostgreSQL cannot store', suspects())}`,
        );
      for (const [name, s] of services)
        if (!s.alive()) throw fail(`${name} is not running after the drain: ${s.status()}`);
      const drainedIn = Date.now() - started;

      // The offline replay of exactly what is on the topic, each partition in offset order (the
      // live service folds partitions in no order relative to each other; ids that pass the
      // schema live on one partition each, so the outcome does not depend on that order).
      const read = await readTopics(world.kafka, [topic]);
      const onTopic = [...read.get(topic)!].sort(([a], [b]) => a - b).flatMap(([, ms]) => ms);
      const problems: string[] = [];
      const byPlace = new Map(onTopic.map((m) => [`${m.partition}@${m.offset}`, m]));
      const misplaced = [...landed].filter(([where, m]) => {
        const found = byPlace.get(where);
        return !found || digest(found.value) !== digest(m.value);
      });
      if (misplaced.length > 0 || landed.size !== plan.messages.length)
        problems.push(
          listed(
            `test messages not on the topic where produced (${landed.size} of ${plan.messages.length} acknowledged)`,
            misplaced.map(([where, m]) => `${m.kind} #${m.index} at ${where}`),
          ),
        );
      const offline = new ReplayEngine(ladders);
      const results: {
        message: TopicMessage;
        result: Exclude<IngestResult, { kind: 'skipped' }>;
      }[] = [];
      for (const message of onTopic)
        // Today's parseEvent reads bytes as UTF-8 (Buffer.toString, which replaces what is not
        // UTF-8) and takes no null; strict UTF-8 and null values arrive with the validator work.
        results.push({ message, result: offline.ingestParsed(parseEvent(message.value ?? '')) });
      const replayed = JSON.parse([...offline.render()].join('')) as {
        ladders: Record<string, { players: Record<string, unknown> }>;
        rejected: { id: string | null; reason: string }[];
        void: { id: string | null; reason: string }[];
      };
      const count = (kind: string) => results.filter((r) => r.result.kind === kind).length;
      const [accepted, duplicates, rejected] = [
        count('accepted'),
        count('duplicate'),
        count('rejected'),
      ];

      // Every message accounted for, and each rejection with the replay's code at its offset.
      const stored: { event_id: string }[] = await world.db.query(
        'SELECT event_id FROM event_store',
      );
      const rows: {
        partition: number;
        offset: string;
        event_id: string | null;
        reason: string;
        detail: string;
      }[] = await world.db.query(
        'SELECT partition, "offset", event_id, reason, detail FROM rejected_messages WHERE topic = $1',
        [topic],
      );
      if (stored.length + rows.length + duplicates !== onTopic.length)
        problems.push(
          `messages unaccounted for: ${stored.length} stored + ${rows.length} rejected + ${duplicates} duplicates (as the replay counts them) != ${onTopic.length} on the topic (replay: ${accepted} accepted, ${rejected} rejected)`,
        );
      const liveRejection = new Map(rows.map((r) => [`${r.partition}@${r.offset}`, r]));
      const disagreements: string[] = [];
      for (const { message, result } of results) {
        const row = liveRejection.get(`${message.partition}@${message.offset}`);
        const expected = result.kind === 'rejected' ? result.reason : null;
        if ((row?.reason ?? null) !== expected)
          disagreements.push(
            `${at(message.partition, message.offset)}\n      replay: ${result.kind === 'rejected' ? `rejected ${result.reason} (${result.detail})` : result.kind}; live: ${row ? `rejected ${row.reason} (${row.detail})` : 'not rejected'}`,
          );
      }
      if (disagreements.length > 0)
        problems.push(
          listed('messages the live service and the replay decided differently', disagreements),
        );
      const unprocessable = rows.filter((r) => r.reason === 'unprocessable');
      if (unprocessable.length > 0)
        problems.push(
          listed(
            'messages rejected as unprocessable (every hostile message must be caught by validation)',
            unprocessable.map((r) => `${at(r.partition, Number(r.offset))}: ${r.detail}`),
          ),
        );
      const acceptedIds = results.flatMap((r) =>
        r.result.kind === 'accepted' ? [r.result.event.id] : [],
      );
      const ids = multisetDiff(
        stored.map((r) => JSON.stringify(r.event_id)),
        acceptedIds.map((id) => JSON.stringify(id)),
      );
      if (ids.onlyA.length + ids.onlyB.length > 0)
        problems.push(
          `${listed('event ids stored but not accepted by the replay', ids.onlyA)}\n${listed('event ids accepted by the replay but not stored', ids.onlyB)}`,
        );

      // The exported state equals the replay's: ladders exactly, rejected and void as multisets.
      const live = JSON.parse(
        await collectText(await exportStandings(world.sql, ladders, null)),
      ) as typeof replayed;
      const players: string[] = [];
      for (const ladder of new Set([
        ...Object.keys(live.ladders),
        ...Object.keys(replayed.ladders),
      ])) {
        const a = live.ladders[ladder]?.players;
        const b = replayed.ladders[ladder]?.players;
        if (!a || !b) {
          players.push(`${ladder}: ${a ? 'only live' : 'only in the replay'}`);
          continue;
        }
        for (const id of new Set([...Object.keys(a), ...Object.keys(b)]))
          if (!isDeepStrictEqual(a[id], b[id]))
            players.push(
              `${ladder} ${JSON.stringify(id)}: live ${JSON.stringify(a[id])}, replay ${JSON.stringify(b[id])}`,
            );
      }
      if (players.length > 0)
        problems.push(listed('players whose live state differs from the replay', players));
      const entry = (e: { id: string | null; reason: string }) =>
        `${e.reason} ${JSON.stringify(e.id)}`;
      for (const list of ['rejected', 'void'] as const) {
        const diff = multisetDiff(live[list].map(entry), replayed[list].map(entry));
        if (diff.onlyA.length + diff.onlyB.length > 0)
          problems.push(
            `${listed(`${list} only live`, diff.onlyA)}\n${listed(`${list} only in the replay`, diff.onlyB)}`,
          );
      }

      // Every rejected message on the dead-letter topic, unchanged, with its code as the reason
      // (compared by digest, in which a null value and an empty one are alike: the service
      // dead-letters a message without a value as an empty one).
      const expectedDead = results.flatMap(({ message, result }) =>
        result.kind === 'rejected' ? [`${result.reason} ${digest(message.value)}`] : [],
      );
      await waitFor(
        async () =>
          [...(await topicEnds(world.kafka, world.topics.deadLetter)).values()].reduce(
            (n, e) => n + e,
            0,
          ) >= expectedDead.length,
        { timeout: 15_000, interval: 250, what: 'the dead letters' },
      ).catch(() => undefined);
      const dead = [
        ...(await readTopics(world.kafka, [world.topics.deadLetter]))
          .get(world.topics.deadLetter)!
          .values(),
      ].flat();
      const deadDiff = multisetDiff(
        dead.map(
          (m) =>
            `${m.headers[DEAD_LETTER_HEADERS.reason] ?? '(no reason header)'} ${digest(m.value)}`,
        ),
        expectedDead,
      );
      if (deadDiff.onlyA.length + deadDiff.onlyB.length > 0) {
        const byDigest = new Map(onTopic.map((m) => [digest(m.value), m]));
        const show = (line: string) => {
          const [reason, hash] = line.split(' ') as [string, string];
          const m = byDigest.get(hash);
          return `${reason}: ${m ? at(m.partition, m.offset) : `bytes of no message on the topic (sha1 ${hash})`}`;
        };
        problems.push(
          `${listed('dead letters the replay did not reject so', deadDiff.onlyA.map(show))}\n${listed('rejections missing from the dead-letter topic', deadDiff.onlyB.map(show))}`,
        );
      }

      // A run that accepted, rejected or repeated nothing would compare nothing.
      if (accepted === 0 || rejected === 0 || duplicates === 0)
        problems.push(
          `the stream exercised too little: ${accepted} accepted, ${rejected} rejected, ${duplicates} duplicates`,
        );
      for (const [name, s] of services)
        if (!s.alive()) problems.push(`${name} is not running at the end: ${s.status()}`);
      console.log(
        `live pipeline fuzz: seed ${SEED}: ${onTopic.length} messages on the topic (${onTopic.length - plan.messages.length} from the maintenance service): ` +
          `${accepted} accepted, ${rejected} rejected, ${duplicates} duplicates; drained in ${drainedIn} ms, checked in ${Date.now() - started} ms`,
      );
      if (problems.length > 0) throw fail(problems.join('\n\n'));
    } finally {
      await rating.stop();
      await maintenance.stop();
    }
  }, 115_000);
});
