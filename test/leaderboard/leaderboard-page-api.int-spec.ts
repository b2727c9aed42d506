/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- the API's JSON answers are read untyped */
import { generateEvents } from '@ranking/generator';
import { ladderRegistry, ReplayEngine } from '@ranking/rating';
import { waitFor } from '@ranking/testing';
import { LeaderboardWorld } from './leaderboard-world.js';

const utc = (instant: string) => new Date(instant).toISOString();

/**
 * What the page reads beside the boards: ladders by their game's name, players by id prefix,
 * the stored daily boards, a page from a rank, and history rows in words (the event's own
 * time, the game's other players).
 */
describe('leaderboard API for the page: names, search, stored boards, rank jumps, history events', () => {
  const ladders = ladderRegistry();
  const world = new LeaderboardWorld(ladders);
  const lines = [
    ...generateEvents({
      seed: 2020,
      events: 3000,
      closes: true,
      days: 9,
      correctionShare: 0.03,
      annulmentShare: 0.002,
      playersPerLadder: 40,
    }),
  ];
  const events = lines.flatMap((line) => {
    try {
      const e = JSON.parse(line);
      return e && typeof e === 'object' && typeof e.id === 'string' ? [e] : [];
    } catch {
      return [];
    }
  });
  const byId = new Map<string, any>(events.map((e) => [e.id, e]));
  let rating: ReturnType<LeaderboardWorld['service']>;

  /** The replay's players of a ladder (everyone who played), by id. */
  const replayed = (ladder: string): Record<string, any> => {
    const engine = new ReplayEngine(ladders);
    for (const line of lines) engine.ingestLine(line);
    return JSON.parse([...engine.render()].join('')).ladders[ladder].players;
  };

  beforeAll(async () => {
    await world.setUp();
    rating = world.service();
    rating.start();
    await world.startLeaderboard();
    await world.produce(lines);
    await waitFor(() => world.drained(), { timeout: 120_000, interval: 250, what: 'the drain' });
    await waitFor(async () => world.settled(), {
      timeout: 60_000,
      interval: 250,
      what: 'the boards',
    });
  }, 240_000);

  afterAll(async () => {
    await world.tearDownAll(rating);
  });

  it('given the built-in ladders, when listed, then each has its game name as the seed page writes it and its language', async () => {
    const { body } = await world.get('/ladders');
    const named = Object.fromEntries(body.ladders.map((l: any) => [l.id, [l.name, l.lang]]));
    expect(named['qq-xiangqi']).toEqual(['QQ中国象棋(新版)', 'zh-Hans']);
    expect(named['xinbo-go']).toEqual(['新博少兒對弈平臺 圍棋', 'zh-Hant']);
    expect(named['igame-gomoku']).toEqual(['i.Game 五子棋排名室', 'zh-Hant']);
  });

  it('given a prefix, when players are searched, then the answer is every player of the replay with that id start, in id order, with their rows', async () => {
    const players = replayed('qq-xiangqi');
    const ids = Object.keys(players)
      .filter((id) => players[id].games > 0)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    // The longest prefix of the first id that still matches several players.
    let prefix = ids[0]!;
    while (ids.filter((id) => id.startsWith(prefix)).length < 3) prefix = prefix.slice(0, -1);
    const expected = ids.filter((id) => id.startsWith(prefix)).slice(0, 50);
    const { status, body } = await world.get(
      `/ladders/qq-xiangqi/players?prefix=${encodeURIComponent(prefix)}&limit=50`,
    );
    expect(status).toBe(200);
    expect(body.players.map((p: any) => p.player)).toEqual(expected);
    for (const row of body.players) {
      const p = players[row.player];
      expect([row.rating, row.games, row.wins, row.losses, row.draws]).toEqual([
        p.rating,
        p.games,
        p.wins,
        p.losses,
        p.draws,
      ]);
      expect(typeof row.title).toBe('string');
    }
    const one = await world.get(`/ladders/qq-xiangqi/players?prefix=${prefix}&limit=1`);
    expect(one.body.players.map((p: any) => p.player)).toEqual(expected.slice(0, 1));
    expect((await world.get('/ladders/qq-xiangqi/players?prefix=zz-nobody')).body.players).toEqual(
      [],
    );
    const empty = await world.get('/ladders/qq-xiangqi/players?prefix=');
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body.errors)).toContain('prefix must not be empty');
    expect((await world.get('/ladders/no-such/players?prefix=a')).status).toBe(404);
  });

  it('given daily closes, when the stored boards are listed, then each is newest first and answers its date with its player count', async () => {
    const { status, body } = await world.get('/ladders/qq-xiangqi/boards');
    expect(status).toBe(200);
    expect(body.boards.length).toBeGreaterThan(1);
    const dates = body.boards.map((b: any) => b.date);
    expect(dates).toEqual([...dates].sort().reverse());
    const list = (await world.get('/ladders')).body.ladders.find((l: any) => l.id === 'qq-xiangqi');
    expect(dates[0]).toBe(list.currentBoard.date);
    for (const board of body.boards) {
      const page = (await world.get(`/ladders/qq-xiangqi/leaderboard?date=${board.date}&limit=1`))
        .body;
      expect([page.date, page.closeKey, page.total]).toEqual([
        board.date,
        board.closeKey,
        board.players,
      ]);
    }
    expect((await world.get('/ladders/igame-gomoku-casual/boards')).status).toBe(404);
  });

  it('given a rank, when a page is asked from it, then it holds the rows from that position on, on every kind of board', async () => {
    const at = encodeURIComponent(new Date().toISOString());
    for (const query of ['view=live', 'view=daily', `at=${at}`]) {
      const whole = await world.wholeBoard('qq-xiangqi', query);
      expect(whole.length).toBeGreaterThan(12);
      const page = (await world.get(`/ladders/qq-xiangqi/leaderboard?${query}&rank=7&limit=5`))
        .body;
      expect(page.from).toBe(7);
      expect(page.rows).toEqual(whole.slice(6, 11));
      const top = (await world.get(`/ladders/qq-xiangqi/leaderboard?${query}&limit=5`)).body;
      expect(top.from).toBe(1);
      const past = (
        await world.get(`/ladders/qq-xiangqi/leaderboard?${query}&rank=${whole.length + 5}`)
      ).body;
      expect([past.rows, past.nextCursor]).toEqual([[], null]);
    }
    const both = await world.get('/ladders/qq-xiangqi/leaderboard?view=live&rank=3&cursor=abc');
    expect(both.status).toBe(400);
    expect(both.body.detail).toContain('give one');
    expect((await world.get('/ladders/qq-xiangqi/leaderboard?rank=0')).status).toBe(400);
  });

  it("given games, corrections and closes, when a player's history is read, then each row carries its event's own time and a game's other players as their own rows say", async () => {
    for (const ladder of ['qq-xiangqi', 'igame-gomoku', 'qq-blokus']) {
      let compared = 0;
      const board = await world.wholeBoard(ladder, 'view=live');
      const player = board[0].player;
      const { body } = await world.get(`/ladders/${ladder}/players/${player}/history?limit=200`);
      expect(body.entries.length).toBeGreaterThan(0);
      for (const entry of body.entries) {
        const event = byId.get(entry.eventId);
        expect(entry.event.type).toBe(event.type);
        if (event.type === 'game.finished') {
          expect([entry.event.at, entry.event.gameId]).toEqual([
            utc(event.finishedAt),
            event.gameId,
          ]);
          const others = event.players.map((p: any) => p.id).filter((id: string) => id !== player);
          expect(entry.others.map((o: any) => o.player).sort()).toEqual(others.sort());
          // Each other player's figures are those of their own row of the event.
          const other = entry.others[0];
          const theirs = (
            await world.get(`/ladders/${ladder}/players/${other.player}/history?limit=200`)
          ).body.entries.find((e: any) => e.eventId === entry.eventId);
          if (theirs) compared++;
          if (theirs)
            expect(other).toEqual({
              player: other.player,
              before: theirs.before,
              after: theirs.after,
              delta: theirs.delta,
              result: theirs.result,
            });
        } else if (event.type === 'game.corrected') {
          expect([entry.event.at, entry.event.void]).toEqual([
            utc(event.correctedAt),
            event.void === true,
          ]);
        } else if (event.type === 'period.closed') {
          expect([entry.event.at, entry.event.period, entry.others]).toEqual([
            utc(event.end),
            event.period,
            [],
          ]);
        }
      }
      expect(compared).toBeGreaterThan(0);
    }
  });
});
