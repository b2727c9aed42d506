import { createHash } from 'node:crypto';
import { MAX_VALUE_BYTES } from '@ranking/contracts';
import { GameResultAdmission, ladderRegistry } from '@ranking/rating';
import { RatingScenario, readTopics, waitFor } from '@ranking/testing';
import { gameServerStream, type ResultMessage } from './game-server-stream.js';

const ladders = ladderRegistry();
const admission = new GameResultAdmission(ladders);
const admitted = (m: ResultMessage) => admission.admit(Buffer.from(m.value)).admitted;

// The stream is drawn from a seed; replay a run with RANKING_INTAKE_SEED=<seed>.
const SEED = process.env.RANKING_INTAKE_SEED
  ? Number(process.env.RANKING_INTAKE_SEED)
  : Math.floor(Math.random() * 2 ** 31);

/** The intake between game servers and the ladder log (CONTRACT.md "Transport"). */
describe(`intake service (real Kafka and PostgreSQL; seed ${SEED}, replay with RANKING_INTAKE_SEED=${SEED})`, () => {
  const world = new RatingScenario(ladders);
  beforeAll(() => world.setUp());
  afterAll(() => world.tearDown());

  it('given game servers publishing games, bad events, privileged types and reserved ids, and the intake SIGKILLed mid-load, then every game is applied once, everything else comes back with its code, and the state equals the offline replay of the admitted games', async () => {
    const { messages: stream, hostile } = gameServerStream(SEED, 12_000, 300);
    const half = Math.floor(stream.length / 2);
    const intake = world.intake();
    const rating = world.service();
    intake.start();
    rating.start();
    try {
      await world.publishResults(stream.slice(0, half));
      // Mid-load: the intake has moved some of the first half when it dies.
      await waitFor(async () => (await world.storedEvents()) > 500, {
        timeout: 60_000,
        interval: 10,
        what: 'the intake to move some games',
      });
      await intake.stop('SIGKILL');
      await world.publishResults(stream.slice(half));
      intake.start();
      await waitFor(() => world.intakeDrained(), {
        timeout: 120_000,
        interval: 250,
        what: 'the intake to take every message',
      });
      await waitFor(() => world.drained(), { timeout: 120_000, interval: 250, what: 'the drain' });

      // Applied: exactly what the offline replay accepts of the admitted games, once each.
      const games = stream.filter(admitted);
      expect(games.length).toBeGreaterThan(10_000);
      await world.expectSameAsReplay(games.map((m) => m.value));

      const read = await readTopics(world.kafka, [
        world.topics.ladderEvents,
        world.topics.gameResultsRejected,
      ]);
      const onLog = [...read.get(world.topics.ladderEvents)!.values()].flat();
      // Under its ladder's key, whatever key it came with; a message sent again after the
      // kill is the same event (the fold ignored it).
      for (const m of onLog) expect(m.key?.toString()).toBe(JSON.parse(m.value!.toString()).ladder);
      const logged = new Set(onLog.map((m) => m.value!.toString()));
      expect(logged).toEqual(new Set(games.map((m) => m.value)));

      // Rejected: every other message, value unchanged, with the admission's code.
      const rejections = [...read.get(world.topics.gameResultsRejected)!.values()].flat();
      // (A value may come back more than once: sent again after the kill, or sent twice.)
      const byValue = new Map<string, typeof rejections>();
      for (const m of rejections)
        byValue.set(m.value!.toString(), [...(byValue.get(m.value!.toString()) ?? []), m]);
      const refused = stream.filter((m) => !admitted(m));
      expect(new Set(byValue.keys())).toEqual(new Set(refused.map((m) => m.value)));
      const codes = new Map<string, number>();
      for (const m of refused) {
        const decided = admission.admit(Buffer.from(m.value));
        if (decided.admitted) throw new Error('admitted');
        const got = byValue.get(m.value) ?? [];
        for (const g of got) {
          expect(g.headers['x-reject-reason']).toBe(decided.rejection.code);
          expect(g.headers['x-reject-detail']).toBe(decided.rejection.detail);
        }
        expect(got.map((g) => g.key?.toString() ?? null)).toContain(m.key);
        codes.set(decided.rejection.code, (codes.get(decided.rejection.code) ?? 0) + 1);
      }
      // Every privileged type and reserved id came back not-permitted.
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
      padded('size-ascii-ok', MAX_VALUE_BYTES, 'ascii'),
      padded('size-ascii-over', MAX_VALUE_BYTES + 1, 'ascii'),
      padded('size-cjk-ok', MAX_VALUE_BYTES, '圍棋棋手'),
      padded('size-cjk-over', MAX_VALUE_BYTES + 1, '圍棋棋手'),
    ];
    const intake = world.intake();
    const rating = world.service();
    intake.start();
    rating.start();
    try {
      await world.publishResults(messages.map((value) => ({ key: 'qq-gomoku', value })));
      await waitFor(() => world.intakeDrained(), {
        timeout: 60_000,
        interval: 250,
        what: 'the intake',
      });
      await waitFor(() => world.drained(), { timeout: 60_000, interval: 250, what: 'the drain' });
      const stored: { event_id: string }[] = await world.db.query(
        "SELECT event_id FROM event_store WHERE event_id LIKE 'size-%' ORDER BY event_id",
      );
      expect(stored.map((r) => r.event_id)).toEqual(['size-ascii-ok', 'size-cjk-ok']);
      const rejected = [
        ...(await readTopics(world.kafka, [world.topics.gameResultsRejected]))
          .get(world.topics.gameResultsRejected)!
          .values(),
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
});
