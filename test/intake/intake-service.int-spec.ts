import { createHash } from 'node:crypto';
import { MAX_VALUE_BYTES } from '@ranking/contracts';
import { GameResultAdmission, ladderRegistry } from '@ranking/rating';
import {
  gameResult,
  RatingScenario,
  readTopics,
  type TestProducer,
  waitFor,
} from '@ranking/testing';
import { gameServerStream, type ResultMessage } from './game-server-stream.js';

const ladders = ladderRegistry();
const admission = new GameResultAdmission(ladders);
/** The producer of the seeded stream: every ladder. */
const GS = { name: 'gs', ladders: [...ladders.keys()].sort() };
const admitted = (m: ResultMessage) => admission.admit(Buffer.from(m.value), GS).admitted;

// The stream is drawn from a seed; replay a run with RANKING_INTAKE_SEED=<seed>.
const SEED = process.env.RANKING_INTAKE_SEED
  ? Number(process.env.RANKING_INTAKE_SEED)
  : Math.floor(Math.random() * 2 ** 31);

/** The intake between game servers and the ladder log (CONTRACT.md "Transport"). */
describe(`intake service (real Kafka and PostgreSQL; seed ${SEED}, replay with RANKING_INTAKE_SEED=${SEED})`, () => {
  const world = new RatingScenario(ladders);
  let gs: TestProducer;
  beforeAll(async () => {
    await world.setUp();
    gs = await world.addProducer(GS.name, GS.ladders);
  });
  afterAll(() => world.tearDown());

  it('given a game server publishing games, bad events, privileged types, reserved ids and another namespace’s ids, and the intake SIGKILLed mid-load, then every game is applied once, everything else comes back on its rejections with its code, and the state equals the offline replay of the admitted games', async () => {
    const { messages: stream, hostile } = gameServerStream(SEED, 12_000, 300, GS.name);
    const half = Math.floor(stream.length / 2);
    const intake = world.intake();
    const rating = world.service();
    intake.start();
    rating.start();
    try {
      await world.publishResults(gs, stream.slice(0, half));
      // Mid-load: the intake has moved some of the first half when it dies.
      await waitFor(async () => (await world.storedEvents()) > 500, {
        timeout: 60_000,
        interval: 10,
        what: 'the intake to move some games',
      });
      await intake.stop('SIGKILL');
      await world.publishResults(gs, stream.slice(half));
      intake.start();
      await waitFor(() => world.intakeDrained(gs), {
        timeout: 120_000,
        interval: 250,
        what: 'the intake to take every message',
      });
      await waitFor(() => world.drained(), { timeout: 120_000, interval: 250, what: 'the drain' });

      // Applied: exactly what the offline replay accepts of the admitted games, once each.
      const games = stream.filter(admitted);
      expect(games.length).toBeGreaterThan(10_000);
      await world.expectSameAsReplay(games.map((m) => m.value));

      const read = await readTopics(world.kafka, [world.topics.ladderEvents, gs.rejections]);
      const onLog = [...read.get(world.topics.ladderEvents)!.values()].flat();
      // Under its ladder's key, whatever key it came with; a message sent again after the
      // kill is the same event (the fold ignored it).
      for (const m of onLog) expect(m.key?.toString()).toBe(JSON.parse(m.value!.toString()).ladder);
      const logged = new Set(onLog.map((m) => m.value!.toString()));
      expect(logged).toEqual(new Set(games.map((m) => m.value)));

      // Rejected: every other message, value unchanged, with the admission's code.
      const rejections = [...read.get(gs.rejections)!.values()].flat();
      // (A value may come back more than once: sent again after the kill, or sent twice.)
      const byValue = new Map<string, typeof rejections>();
      for (const m of rejections)
        byValue.set(m.value!.toString(), [...(byValue.get(m.value!.toString()) ?? []), m]);
      const refused = stream.filter((m) => !admitted(m));
      expect(new Set(byValue.keys())).toEqual(new Set(refused.map((m) => m.value)));
      const codes = new Map<string, number>();
      for (const m of refused) {
        const decided = admission.admit(Buffer.from(m.value), GS);
        if (decided.admitted) throw new Error('admitted');
        const got = byValue.get(m.value) ?? [];
        for (const g of got) {
          expect(g.headers['x-reject-reason']).toBe(decided.rejection.code);
          expect(g.headers['x-reject-detail']).toBe(decided.rejection.detail);
        }
        expect(got.map((g) => g.key?.toString() ?? null)).toContain(m.key);
        codes.set(decided.rejection.code, (codes.get(decided.rejection.code) ?? 0) + 1);
      }
      // Every privileged type, reserved id and other namespace came back not-permitted.
      expect(hostile.size).toBe(300);
      for (const value of hostile)
        expect(byValue.get(value)?.[0]?.headers['x-reject-reason']).toBe('not-permitted');
      expect(codes.get('invalid-event')).toBeGreaterThan(0);
    } finally {
      await intake.stop();
      await rating.stop();
    }
  }, 300_000);

  it('given values of 65,536 and 65,537 bytes in ASCII and CJK, when published, then the first of each is applied and the second is invalid-event with a null id, sent back cut to its first 65,536 bytes with its length and hash', async () => {
    /** A valid game padded with JSON whitespace to exactly `size` bytes, its players named in `script`. */
    const padded = (id: string, size: number, name: string) => {
      const json = JSON.stringify({
        id,
        type: 'game.finished',
        ladder: 'qq-gomoku',
        gameId: id,
        finishedAt: '2026-11-29T13:05:00+08:00',
        moves: 41,
        players: [
          { id: `${name}-a`, result: 'win' },
          { id: `${name}-b`, result: 'loss' },
        ],
      });
      const value = Buffer.from(`${json}${' '.repeat(size - Buffer.byteLength(json))}`);
      expect(value.length).toBe(size);
      return value;
    };
    const messages = [
      padded('gs:size-ascii-ok', MAX_VALUE_BYTES, 'ascii'),
      padded('gs:size-ascii-over', MAX_VALUE_BYTES + 1, 'ascii'),
      padded('gs:size-cjk-ok', MAX_VALUE_BYTES, '圍棋棋手'),
      padded('gs:size-cjk-over', MAX_VALUE_BYTES + 1, '圍棋棋手'),
    ];
    const intake = world.intake();
    const rating = world.service();
    intake.start();
    rating.start();
    try {
      await world.publishResults(
        gs,
        messages.map((value) => ({ key: 'qq-gomoku', value })),
      );
      await waitFor(() => world.intakeDrained(gs), {
        timeout: 60_000,
        interval: 250,
        what: 'the intake',
      });
      await waitFor(() => world.drained(), { timeout: 60_000, interval: 250, what: 'the drain' });
      const stored: { event_id: string }[] = await world.db.query(
        "SELECT event_id FROM event_store WHERE event_id LIKE 'gs:size-%' ORDER BY event_id",
      );
      expect(stored.map((r) => r.event_id)).toEqual(['gs:size-ascii-ok', 'gs:size-cjk-ok']);
      const rejected = [
        ...(await readTopics(world.kafka, [gs.rejections])).get(gs.rejections)!.values(),
      ]
        .flat()
        .filter((m) => m.headers['x-original-value-bytes'] !== undefined);
      // Cut to their first 65,536 bytes, their length and hash in headers (ADR 36).
      const over = [messages[1]!, messages[3]!];
      expect(
        rejected.map((m) => [
          m.value,
          m.headers['x-original-value-bytes'],
          m.headers['x-original-value-sha256'],
          m.headers['x-reject-reason'],
          m.headers['x-reject-detail'],
        ]),
      ).toEqual(
        over.map((value) => [
          value.subarray(0, MAX_VALUE_BYTES),
          String(MAX_VALUE_BYTES + 1),
          createHash('sha256').update(value).digest('hex'),
          'invalid-event',
          `the value is ${MAX_VALUE_BYTES + 1} bytes, over the limit of ${MAX_VALUE_BYTES}`,
        ]),
      );
    } finally {
      await intake.stop();
      await rating.stop();
    }
  }, 180_000);

  it('given two producers, then each writes only its ladders under its namespace, its rejections reach it alone, and a producer added, narrowed or removed while the intake runs is consumed, judged by its new ladders, or left alone', async () => {
    const gomoku = await world.addProducer('gomoku-eu-1', ['igame-gomoku']);
    const intake = world.intake();
    const rating = world.service();
    intake.start();
    rating.start();
    const send = (producer: TestProducer, ...events: Record<string, unknown>[]) =>
      world.publishResults(
        producer,
        events.map((e) => ({ key: String(e.ladder), value: JSON.stringify(e) })),
      );
    const stored = async (...ids: string[]): Promise<string[]> => {
      const rows: { event_id: string }[] = await world.db.query(
        'SELECT event_id FROM event_store WHERE event_id = ANY($1)',
        [ids],
      );
      return rows.map((r) => r.event_id).sort();
    };
    /** The id of a rejected value, when it is JSON with one (the first test's bad lines are not). */
    const idOf = (value: Buffer | null): string => {
      try {
        return String((JSON.parse(value?.toString() ?? '') as { id?: unknown }).id);
      } catch {
        return '(not JSON)';
      }
    };
    const reasons = async (producer: TestProducer): Promise<[string, unknown][]> =>
      [...(await readTopics(world.kafka, [producer.rejections])).get(producer.rejections)!.values()]
        .flat()
        .map((m) => [idOf(m.value), m.headers['x-reject-reason']]);
    try {
      await send(
        gomoku,
        gameResult('gomoku-eu-1:g-1'),
        gameResult('gomoku-eu-1:g-2', { ladder: 'qq-gomoku' }),
        gameResult('gs:g-from-gomoku'),
      );
      await send(
        gs,
        gameResult('gs:g-own', { ladder: 'qq-gomoku' }),
        gameResult('gomoku-eu-1:g-3'),
      );
      await waitFor(
        async () => (await world.intakeDrained(gomoku)) && (await world.intakeDrained(gs)),
        {
          timeout: 60_000,
          interval: 250,
          what: 'the intake to take both producers’ messages',
        },
      );
      await waitFor(() => world.drained(), { timeout: 60_000, interval: 250, what: 'the drain' });
      expect(
        await stored(
          'gomoku-eu-1:g-1',
          'gomoku-eu-1:g-2',
          'gs:g-from-gomoku',
          'gs:g-own',
          'gomoku-eu-1:g-3',
        ),
      ).toEqual(['gomoku-eu-1:g-1', 'gs:g-own']);
      // Each producer's rejections on its own topic, and only there.
      expect(await reasons(gomoku)).toEqual([
        ['gomoku-eu-1:g-2', 'not-permitted'],
        ['gs:g-from-gomoku', 'not-permitted'],
      ]);
      expect((await reasons(gs)).filter(([id]) => String(id).startsWith('gomoku-eu-1:'))).toEqual([
        ['gomoku-eu-1:g-3', 'not-permitted'],
      ]);

      // Added while the intake runs: consumed within a reading of the registry.
      const late = await world.addProducer('xiangqi-1', ['qq-xiangqi', 'igame-gomoku']);
      await send(late, gameResult('xiangqi-1:g-1'));
      await waitFor(async () => (await stored('xiangqi-1:g-1')).length === 1, {
        timeout: 60_000,
        interval: 250,
        what: 'the new producer’s game',
      });
      // Narrowed: judged by its new ladders from then on.
      await world.addProducer('xiangqi-1', ['qq-xiangqi']);
      await waitFor(
        async () => {
          await send(late, gameResult(`xiangqi-1:probe-${Date.now()}`));
          await waitFor(() => world.intakeDrained(late), {
            timeout: 30_000,
            interval: 100,
            what: 'the intake',
          });
          return (await reasons(late)).some(
            ([id, code]) => String(id).startsWith('xiangqi-1:probe-') && code === 'not-permitted',
          );
        },
        { timeout: 30_000, interval: 600, what: 'the narrowed ladders to hold' },
      );
      // Removed: its topic is left as it is, nothing more of it is moved.
      await world.db.query("DELETE FROM producers WHERE name = 'xiangqi-1'");
      await waitFor(() => intake.output.includes('producer xiangqi-1 removed'), {
        timeout: 30_000,
        interval: 100,
        what: 'the intake to leave the producer',
      });
      await send(late, gameResult('xiangqi-1:g-after', { ladder: 'qq-xiangqi', gameId: 'after' }));
      // The others go on: a game of gs after it reaches the store, the removed one's does not.
      await send(gs, gameResult('gs:g-after'));
      await waitFor(async () => (await stored('gs:g-after')).length === 1, {
        timeout: 60_000,
        interval: 250,
        what: 'gs’s game after the removal',
      });
      expect(await world.intakeDrained(late)).toBe(false);
      expect(await stored('xiangqi-1:g-after')).toEqual([]);
    } finally {
      await intake.stop();
      await rating.stop();
    }
  }, 240_000);
});
