/* eslint-disable @typescript-eslint/no-explicit-any -- the API's JSON answers are read untyped */
import type { ListedChange, RatingChangesMessage } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import { ladderRegistry } from '@ranking/rating';
import { type ServiceProcess, waitFor } from '@ranking/testing';
import { Redis } from 'ioredis';
import { expectedBoard, LeaderboardWorld } from './leaderboard-world.js';

const ladders = ladderRegistry();
const LADDER = 'qq-xiangqi';
const lines = [
  ...generateEvents({ seed: 93, events: 1200, closes: true, days: 3, playersPerLadder: 25 }),
];

const project = (rows: any[]) =>
  rows.map((r) => ({
    rank: r.rank,
    player: r.player,
    rating: r.rating,
    wins: r.wins,
    losses: r.losses,
    draws: r.draws,
  }));

/**
 * The live board from the rating-changes messages alone (ADR 25), on the real Kafka,
 * PostgreSQL and Redis: messages made up here carry rows that PostgreSQL does not hold, so the
 * board shows where each row came from.
 */
describe('the live board from the messages (real Kafka, PostgreSQL, Redis)', () => {
  const world = new LeaderboardWorld(ladders);
  let rating: ServiceProcess;
  let redis: Redis;
  const metaKey = () => `${world.redisPrefix}lb:{${LADDER}}:board:live`;
  /** The seq of the last message in the live board (Redis), and the ladder's log position. */
  const appliedSeq = async () => Number(await redis.hget(metaKey(), 'seq'));
  const position = async () =>
    Number(
      (await world.db.query('SELECT last_seq FROM ladders WHERE ladder = $1', [LADDER]))[0]
        .last_seq,
    );
  const metric = async (name: string, label: string): Promise<number> =>
    Number(
      new RegExp(`${name}\\{${label}\\} (\\d+)`).exec(
        String((await world.get('/metrics')).body),
      )?.[1] ?? 0,
    );
  const reads = (reason: string) => metric('leaderboard_live_reads_total', `reason="${reason}"`);
  const liveRow = async (player: string): Promise<any> =>
    (await world.wholeBoard(LADDER, 'view=live')).find((r) => r.player === player);
  const listed = (player: string, rating: number, games: number): ListedChange => ({
    player,
    before: rating,
    after: rating,
    delta: 0,
    result: 'win',
    why: { kind: 'elo' },
    standing: { games, wins: games, losses: 0, draws: 0, ratedGames: games, level: 25 },
  });
  const game = (
    seq: number,
    previousSeq: number,
    changes: ListedChange[],
  ): RatingChangesMessage => ({
    eventId: `made-up-${seq}-${previousSeq}-${changes.map((c) => c.after).join('-')}`,
    ladder: LADDER,
    seq,
    previousSeq,
    type: 'game.finished',
    changes,
  });
  /** Publishes made-up messages and waits until the leaderboard has applied them. */
  const publish = async (...messages: RatingChangesMessage[]) => {
    const producer = world.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    await producer.send({
      topic: world.topics.ratingChanges,
      messages: messages.map((m) => ({ key: LADDER, value: JSON.stringify(m) })),
    });
    await producer.disconnect();
    await waitFor(() => world.caughtUp(), { timeout: 60_000, interval: 100, what: 'caught up' });
  };
  /** The live board as a read of PostgreSQL gives it: the replay of the whole log. */
  const fromPostgres = () => expectedBoard(lines, ladders, LADDER);
  let player: string;
  let realRating: number;

  beforeAll(async () => {
    await world.setUp();
    redis = new Redis('redis://127.0.0.1:6379');
    rating = world.service();
    rating.start();
    await world.startLeaderboard();
    await world.produce(lines);
    await waitFor(
      async () =>
        await world.settled(),
      { timeout: 120_000, interval: 250, what: 'the boards to catch up' },
    );
    const top = fromPostgres()[0]!;
    player = top.player;
    realRating = top.rating;
  }, 240_000);

  afterAll(async () => {
    redis?.disconnect();
    await world.tearDownAll(rating);
  });

  it('given the rating service’s messages, then the live board is the replay’s, built from the messages without one read of PostgreSQL', async () => {
    for (const ladder of [...ladders.values()].filter((l) => l.rankedAfter !== null))
      expect(project(await world.wholeBoard(ladder.id, 'view=live'))).toEqual(
        expectedBoard(lines, ladders, ladder.id),
      );
    expect(await metric('leaderboard_live_messages_total', 'outcome="applied"')).toBeGreaterThan(
      500,
    );
    expect(await reads('gap')).toBe(0);
    expect(await reads('summary')).toBe(0);
    // The board holds the ladder's last message, the one the rating service last published (or
    // the position of a read, when the start-up build read a ladder after its last message).
    const [{ last_message_seq: last }] = await world.db.query(
      'SELECT last_message_seq FROM ladders WHERE ladder = $1',
      [LADDER],
    );
    expect(await appliedSeq()).toBeGreaterThanOrEqual(Number(last));
    expect(await appliedSeq()).toBeLessThanOrEqual(await position());
  });

  it('given a message whose rows PostgreSQL does not hold, then the board shows the message’s rows (no read of PostgreSQL)', async () => {
    const applied = await appliedSeq();
    // Seq applied + 1 had no message (a void game, say): this one follows the last one applied.
    await publish(
      game(applied + 2, applied, [listed(player, 4321, 999), listed('ghost', 1234, 3)]),
    );
    expect(await liveRow(player)).toMatchObject({ rating: 4321, wins: 999, ratedGames: 999 });
    expect(await liveRow('ghost')).toMatchObject({ rating: 1234, wins: 3 });
    const [stored] = await world.db.query(
      'SELECT rating FROM ladder_players WHERE ladder = $1 AND player = $2',
      [LADDER, player],
    );
    expect(stored.rating).toBe(realRating);
    expect(await appliedSeq()).toBe(applied + 2);
    expect(await reads('gap')).toBe(0);
  });

  it('when messages already applied come again, with other rows, then nothing changes (applied twice changes nothing)', async () => {
    const applied = await appliedSeq();
    const before = await world.wholeBoard(LADDER, 'view=live');
    const duplicates = await metric('leaderboard_live_messages_total', 'outcome="duplicate"');
    await publish(
      game(applied, applied - 2, [listed(player, 1, 1)]),
      game(applied - 1, applied - 2, [listed('ghost', 2, 2)]),
    );
    expect(await world.wholeBoard(LADDER, 'view=live')).toEqual(before);
    expect(await appliedSeq()).toBe(applied);
    expect(await metric('leaderboard_live_messages_total', 'outcome="duplicate"')).toBe(
      duplicates + 2,
    );
  });

  it('given a message after a lost one, then the ladder is read from PostgreSQL: the live board and a daily board the lost message would have built', async () => {
    const applied = await appliedSeq();
    const gaps = await reads('gap');
    // The newest daily board goes, as if its close's message had been lost.
    const newest = (await redis.zrevrange(`${world.redisPrefix}lb:{${LADDER}}:days`, 0, 0))[0]!;
    const daily = await world.wholeBoard(LADDER, `date=${newest}`);
    await redis.del(`${world.redisPrefix}lb:{${LADDER}}:board:${newest}`);
    await redis.zrem(`${world.redisPrefix}lb:{${LADDER}}:days`, newest);
    expect((await world.get(`/ladders/${LADDER}/leaderboard?date=${newest}`)).status).toBe(404);
    // Its previous message (applied + 3) never came.
    await publish(game(applied + 5, applied + 3, [listed(player, 1111, 5)]));
    expect(await reads('gap')).toBe(gaps + 1);
    expect(project(await world.wholeBoard(LADDER, 'view=live'))).toEqual(fromPostgres());
    expect(await liveRow('ghost')).toBeUndefined();
    // The board holds what it read: everything up to the ladder's position.
    expect(await appliedSeq()).toBe(await position());
    expect(await world.wholeBoard(LADDER, `date=${newest}`)).toEqual(daily);
  });

  it('given a summary (a big close, an annulment), then the live board is read from PostgreSQL', async () => {
    const at = await appliedSeq();
    await publish(game(at + 1, at, [listed(player, 2222, 7)]));
    expect(await liveRow(player)).toMatchObject({ rating: 2222 });
    const summaries = await reads('summary');
    await publish({
      eventId: `made-up-summary-${at}`,
      ladder: LADDER,
      seq: at + 2,
      previousSeq: at + 1,
      type: 'player.annulled',
      player: 'mallory',
      summary: true,
      moved: 0,
    });
    expect(await reads('summary')).toBe(summaries + 1);
    expect(project(await world.wholeBoard(LADDER, 'view=live'))).toEqual(fromPostgres());
    expect(await appliedSeq()).toBe(await position());
  });

  it('when Redis loses the ladder’s boards, then they are rebuilt from PostgreSQL, and the next message applies on top of them', async () => {
    const daily = await world.wholeBoard(LADDER, 'view=daily');
    const keys = await redis.keys(`${world.redisPrefix}lb:{${LADDER}}*`);
    await redis.unlink(...keys);
    const rebuilt = await waitFor(
      async () => {
        const answer = await world.get(`/ladders/${LADDER}/leaderboard?view=live&limit=1`);
        return answer.status === 200 ? answer : undefined;
      },
      { timeout: 30_000, what: 'the rebuild' },
    );
    expect(rebuilt.body.rows[0].player).toBe(player);
    expect(project(await world.wholeBoard(LADDER, 'view=live'))).toEqual(fromPostgres());
    expect(await world.wholeBoard(LADDER, 'view=daily')).toEqual(daily);
    const at = await position();
    expect(await appliedSeq()).toBe(at);
    const reads0 = (await reads('gap')) + (await reads('summary'));
    await publish(game(at + 1, at, [listed(player, 3333, 8)]));
    expect(await liveRow(player)).toMatchObject({ rating: 3333 });
    expect((await reads('gap')) + (await reads('summary'))).toBe(reads0);
  });
});
