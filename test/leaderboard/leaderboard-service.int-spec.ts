/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- the API's JSON answers are read untyped */
import { generateEvents } from '@ranking/generator';
import { type LadderConfig, ladderRegistry } from '@ranking/rating';
import { waitFor } from '@ranking/testing';
import { expectedBoard, LeaderboardWorld } from './leaderboard-world.js';

const ladders = ladderRegistry();
const boardLadders = [...ladders.values()].filter((l) => l.rankedAfter !== null);

/** The day after a close key: the board's date (ADR 4: the 06:00 after the day). */
const boardDate = (key: string) =>
  new Date(Date.parse(`${key}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

const project = (rows: any[]) =>
  rows.map((r) => ({
    rank: r.rank,
    player: r.player,
    rating: r.rating,
    wins: r.wins,
    losses: r.losses,
    draws: r.draws,
  }));

/** The leaderboard service with the rating service, on the real Kafka, PostgreSQL and Redis. */
describe('leaderboard service (real Kafka, PostgreSQL, Redis)', () => {
  const world = new LeaderboardWorld(ladders);
  const lines = [
    ...generateEvents({
      seed: 61,
      events: 5000,
      closes: true,
      days: 6,
      badShare: 0.02,
      correctionShare: 0.02,
      playersPerLadder: 60,
    }),
  ];
  // Each daily close of a ladder with a board, with the log cut just after it.
  const closes: { ladder: LadderConfig; key: string; cut: number }[] = [];
  for (const [i, line] of lines.entries()) {
    if (!line.includes('"period.closed"')) continue;
    let e: any;
    try {
      e = JSON.parse(line);
    } catch {
      continue; // a bad line of the stream
    }
    const ladder = ladders.get(e.ladder);
    if (e.type === 'period.closed' && e.period === 'daily' && ladder && ladder.rankedAfter !== null)
      closes.push({ ladder, key: e.key, cut: i + 1 });
  }
  const rating = () => world.service();
  let ratingService: ReturnType<typeof rating>;

  beforeAll(async () => {
    await world.setUp();
    ratingService = rating();
    ratingService.start();
    await world.startLeaderboard();
    await world.produce(lines);
    await waitFor(() => world.drained(), { timeout: 120_000, interval: 250, what: 'the drain' });
    await waitFor(
      async () =>
        (await world.db.query('SELECT count(*) AS n FROM outbox'))[0].n === '0' &&
        (
          await Promise.all(
            closes.map(
              async (c) =>
                (
                  await world.get(
                    `/ladders/${c.ladder.id}/leaderboard?date=${boardDate(c.key)}&limit=1`,
                  )
                ).status,
            ),
          )
        ).every((s) => s === 200),
      { timeout: 90_000, interval: 500, what: 'every daily board' },
    );
    await waitFor(() => world.settled(), { timeout: 60_000, interval: 250, what: 'caught up' });
  }, 300_000);

  afterAll(async () => {
    await world.tearDownAll(ratingService);
  });

  it('given a stream with daily closes, then each daily board equals the replay of the log cut at its close, ties and eligibility included', async () => {
    expect(closes.length).toBeGreaterThan(20);
    let tied = 0;
    let unranked = 0;
    for (const close of closes) {
      const expected = expectedBoard(lines.slice(0, close.cut), ladders, close.ladder.id);
      const rows = await world.wholeBoard(close.ladder.id, `date=${boardDate(close.key)}`);
      expect({ close: close.key, ladder: close.ladder.id, rows: project(rows) }).toEqual({
        close: close.key,
        ladder: close.ladder.id,
        rows: expected,
      });
      tied += expected.filter((r, i) => i > 0 && expected[i - 1]!.rank === r.rank).length;
      if (close.ladder.id === 'igame-gomoku') {
        const played = (
          await world.db.query(
            'SELECT count(*) AS n FROM daily_standings WHERE ladder = $1 AND period_key = $2',
            [close.ladder.id, close.key],
          )
        )[0].n;
        unranked += Number(played) - expected.length;
      }
    }
    // The stream exercised shared ranks and i.Game's 20-game eligibility.
    expect(tied).toBeGreaterThan(0);
    expect(unranked).toBeGreaterThan(0);
  });

  it('when no date is given, then the newest daily board is served, and /ladders names it', async () => {
    const { body: list } = await world.get('/ladders');
    for (const ladder of boardLadders) {
      const newest = closes.filter((c) => c.ladder.id === ladder.id).at(-1)!;
      const entry = list.ladders.find((l: any) => l.id === ladder.id);
      expect(entry).toMatchObject({ ruleSet: ladder.ruleSet, timezone: ladder.timezone });
      expect(entry.currentBoard.date).toBe(boardDate(newest.key));
      const { body } = await world.get(`/ladders/${ladder.id}/leaderboard`);
      expect(body).toMatchObject({
        view: 'daily',
        live: false,
        date: boardDate(newest.key),
        closeKey: newest.key,
      });
    }
    expect(list.ladders.find((l: any) => l.id === 'igame-gomoku-casual').hasLeaderboard).toBe(
      false,
    );
  });

  it('the live board equals the replay of the whole log and is marked live; titles and levels are shown', async () => {
    for (const ladder of boardLadders) {
      const rows = await world.wholeBoard(ladder.id, 'view=live');
      expect(project(rows)).toEqual(expectedBoard(lines, ladders, ladder.id));
    }
    const { body } = await world.get('/ladders/qq-xiangqi/leaderboard?view=live&limit=3');
    expect(body.live).toBe(true);
    expect(typeof body.rows[0].title).toBe('string');
    const xinbo = await world.get('/ladders/xinbo-go/leaderboard?view=live&limit=3');
    expect(typeof xinbo.body.rows[0].level).toBe('number');
    // From the messages' rows alone: no live board was read from PostgreSQL for a message.
    const metrics = String((await world.get('/metrics')).body);
    expect(metrics).not.toMatch(/leaderboard_live_reads_total\{/);
    expect(
      Number(/leaderboard_live_messages_total\{outcome="applied"\} (\d+)/.exec(metrics)?.[1]),
    ).toBeGreaterThan(1000);
  });

  it('a player: rating, record, live and daily rank with neighbours, and a history with the why of each change', async () => {
    const board = await world.get('/ladders/igame-gomoku/leaderboard?limit=10');
    const third = board.body.rows[2];
    const { status, body } = await world.get(
      `/ladders/igame-gomoku/players/${third.player}?around=2`,
    );
    expect(status).toBe(200);
    expect(body.daily.rank).toBe(third.rank);
    expect(body.daily.around.map((r: any) => r.player)).toEqual(
      board.body.rows.slice(0, 5).map((r: any) => r.player),
    );
    expect(body.live.live).toBe(true);
    expect(body.live.around.some((r: any) => r.player === third.player)).toBe(true);
    expect(body.ranked).toBe(true);
    const history = await world.get(
      `/ladders/igame-gomoku/players/${third.player}/history?limit=5`,
    );
    expect(history.status).toBe(200);
    expect(history.body.entries).toHaveLength(5);
    expect(history.body.entries[0]).toMatchObject({
      why: expect.any(Object),
      eventId: expect.any(String),
    });
    expect(history.body.entries[0].after).toBe(body.rating);
    const next = await world.get(
      `/ladders/igame-gomoku/players/${third.player}/history?limit=5&cursor=${history.body.nextCursor}`,
    );
    expect(next.body.entries[0].id).toBeLessThan(history.body.entries[4].id);
  });

  it.each([
    ['/ladders/igame-gomoku/leaderboard?date=2026-13-01', 400, /date/],
    ['/ladders/igame-gomoku/leaderboard?date=2026-02-30', 400, /not a real date/],
    ['/ladders/igame-gomoku/leaderboard?date=yesterday', 400, /YYYY-MM-DD/],
    ['/ladders/igame-gomoku/leaderboard?limit=0', 400, /at least 1/],
    ['/ladders/igame-gomoku/leaderboard?limit=201', 400, /at most 200/],
    ['/ladders/igame-gomoku/leaderboard?limit=ten', 400, /whole number/],
    ['/ladders/igame-gomoku/leaderboard?view=weekly', 400, /daily or live/],
    ['/ladders/igame-gomoku/leaderboard?view=live&date=2026-11-03', 400, /daily view only/],
    ['/ladders/igame-gomoku/leaderboard?cursor=garbage', 400, /cursor/],
    ['/ladders/igame-gomoku/leaderboard?colour=red', 400, /colour should not exist/],
    ['/ladders/igame-gomoku/players/gomoku1?around=99', 400, /at most 50/],
    ['/ladders/igame-gomoku/players/gomoku1/history?cursor=-1', 400, /cursor/],
    ['/ladders/chess/leaderboard', 404, /unknown ladder "chess"/],
    ['/ladders/igame-gomoku-casual/leaderboard', 404, /no leaderboard/],
    ['/ladders/igame-gomoku/leaderboard?date=2020-01-01', 404, /no daily board of 2020-01-01/],
    ['/ladders/igame-gomoku/players/nobody', 404, /player "nobody" has no games/],
    ['/ladders/igame-gomoku/players/nobody/history', 404, /no rating history/],
  ])('GET %s answers %i with a clear message', async (path, status, message) => {
    const answer = await world.get(path);
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ type: 'about:blank', status });
    expect(answer.body.detail).toMatch(message);
  });

  it('given rating-changes messages it cannot read, then it passes over them with a warning and a count, and keeps up', async () => {
    const skipped = async () =>
      Number(
        /leaderboard_skipped_messages_total\{reason="unreadable"\} (\d+)/.exec(
          String((await world.get('/metrics')).body),
        )?.[1] ?? 0,
      );
    const before = await skipped();
    const producer = world.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    await producer.send({
      topic: world.topics.ratingChanges,
      messages: [
        { key: 'igame-gomoku', value: 'not json' },
        { key: 'igame-gomoku', value: '' },
        { key: 'igame-gomoku', value: Buffer.from([0xff, 0xfe, 0x00]) },
        { key: 'igame-gomoku', value: '{"ladder":"igame-gomoku"}' },
      ],
    });
    await producer.disconnect();
    await waitFor(() => world.caughtUp(), { timeout: 60_000, interval: 250, what: 'caught up' });
    expect(await skipped()).toBe(before + 4);
    // Ready again (readiness goes by the lag, measured every few seconds).
    await waitFor(async () => (await world.get('/health')).status === 200, {
      timeout: 30_000,
      what: 'the service to be ready',
    });
    expect((await world.get('/ladders/igame-gomoku/leaderboard?view=live&limit=1')).status).toBe(
      200,
    );
  });

  it('when every rating-changes message is delivered again, then no board changes (applied twice changes nothing)', async () => {
    const snapshot = async () => {
      const out: Record<string, any[]> = {};
      for (const close of closes.slice(-8))
        out[`${close.ladder.id}/${close.key}`] = await world.wholeBoard(
          close.ladder.id,
          `date=${boardDate(close.key)}`,
        );
      for (const ladder of boardLadders)
        out[`${ladder.id}/live`] = await world.wholeBoard(ladder.id, 'view=live');
      return out;
    };
    const before = await snapshot();
    const admin = world.kafka.admin();
    await admin.connect();
    const ends = await admin.fetchTopicOffsets(world.topics.ratingChanges);
    const total = ends.reduce((n, p) => n + Number(p.high), 0);
    const copied: { key: Buffer | null; value: Buffer | null }[] = [];
    const reader = world.kafka.consumer({ groupId: `${world.prefix}copy` });
    await reader.connect();
    await reader.subscribe({ topic: world.topics.ratingChanges, fromBeginning: true });
    await reader.run({
      eachMessage: ({ message }) => {
        copied.push({ key: message.key, value: message.value });
        return Promise.resolve();
      },
    });
    await waitFor(() => copied.length >= total, { timeout: 60_000, what: 'the copy' });
    await reader.disconnect();
    const producer = world.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    await producer.send({ topic: world.topics.ratingChanges, messages: copied });
    await producer.disconnect();
    await waitFor(() => world.caughtUp(), {
      timeout: 90_000,
      interval: 250,
      what: 'the leaderboard consumer to apply the copies',
    });
    await admin.disconnect();
    expect(await snapshot()).toEqual(before);
  });

  it('while boards are rebuilt again and again, a reader polling them never sees a partial board', async () => {
    const ladder = 'igame-gomoku';
    const expected = await world.wholeBoard(ladder, 'view=live');
    const producer = world.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    let polls = 0;
    let stop = false;
    const poller = (async () => {
      while (!stop) {
        const { status, body } = await world.get(
          `/ladders/${ladder}/leaderboard?view=live&limit=200`,
        );
        expect(status).toBe(200);
        expect(body.total).toBe(expected.length);
        expect(body.rows).toEqual(expected.slice(0, 200));
        polls++;
      }
    })();
    // A summary message above the board's seq makes the service read the whole live board from
    // PostgreSQL, which leaves the board at the ladder's position: the next one is above it too.
    const [{ last_seq: position }] = await world.db.query(
      'SELECT last_seq FROM ladders WHERE ladder = $1',
      [ladder],
    );
    const builds = async () =>
      Number(
        (await world.get('/metrics')).body.match(
          /ranking_board_build_duration_seconds_count\{ladder="igame-gomoku",view="live"\} (\d+)/,
        )?.[1] ?? 0,
      );
    for (let i = 0; i < 10; i++) {
      const before = await builds();
      await producer.send({
        topic: world.topics.ratingChanges,
        messages: [
          {
            key: ladder,
            value: JSON.stringify({
              eventId: `rebuild-${i}`,
              ladder,
              seq: Number(position) + 1,
              previousSeq: Number(position),
              type: 'period.closed',
              summary: true,
              moved: 101,
              period: 'weekly',
              key: '2026-W45',
            }),
          },
        ],
      });
      await waitFor(async () => (await builds()) > before, {
        timeout: 30_000,
        what: `rebuild ${i}`,
      });
    }
    stop = true;
    await poller;
    await producer.disconnect();
    expect(polls).toBeGreaterThan(10);
  });
});
