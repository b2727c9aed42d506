/* eslint-disable @typescript-eslint/no-explicit-any -- the API's JSON answers and the replay's output are read untyped */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateEvents } from '@ranking/generator';
import { ladderRegistry } from '@ranking/rating';
import { waitFor } from '@ranking/testing';
import { LeaderboardWorld } from './leaderboard-world.js';

const run = promisify(execFile);
const ladders = ladderRegistry();
const boardLadders = [...ladders.values()].filter((l) => l.rankedAfter !== null);

/** What a board row and a replay's player have in common. */
const project = (player: string, r: any) => ({
  player,
  ...(r.rating === undefined ? {} : { rating: r.rating }),
  games: r.games,
  wins: r.wins,
  losses: r.losses,
  draws: r.draws,
  ...(r.title === undefined ? {} : { title: r.title }),
  ...(r.level === undefined ? {} : { level: r.level }),
});

/**
 * A ladder's board computed from `ranking replay`'s output the way the boards rank: the ranked
 * players, rating descending, ties in player byte order sharing a competition rank (1, 2, 2, 4).
 */
function boardOfReplay(output: any, ladder: string) {
  const players = Object.entries((output.ladders[ladder]?.players ?? {}) as Record<string, any>);
  const ranked = players
    .filter(([, p]) => p.ranked)
    .sort(
      ([a, p], [b, q]) =>
        q.rating - p.rating || Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')),
    );
  const first = new Map<number, number>();
  return ranked.map(([id, p], i) => {
    if (!first.has(p.rating)) first.set(p.rating, i + 1);
    return { rank: first.get(p.rating)!, ...project(id, p) };
  });
}

/**
 * Boards as of an instant through the running services: games in two waves, an instant taken
 * between them, and the answers as of it checked against `ranking replay` of the event store's
 * prefix by then (`ranking export --log --until`).
 */
describe('boards as of an instant (real Kafka, PostgreSQL, Redis)', () => {
  const world = new LeaderboardWorld(ladders);
  const lines = [
    ...generateEvents({
      seed: 67,
      events: 4000,
      closes: true,
      days: 6,
      badShare: 0.01,
      correctionShare: 0.03,
      playersPerLadder: 40,
    }),
  ];
  const half = Math.floor(lines.length / 2);
  const wave1 = lines.slice(0, half);
  // Wave 2 also brings two newcomers: players who had not played by the instant between.
  const model = lines
    .slice(half)
    .find((t) => /"qq-gomoku".*"game.finished"|"game.finished".*"qq-gomoku"/.test(t))!;
  const newcomers = ['newcomer-1', 'newcomer-2'];
  const game = JSON.parse(model) as { players: object[] };
  const late = {
    ...game,
    id: 'newcomers-game',
    gameId: 'newcomers-game',
    players: game.players.map((p, i) => ({ ...p, id: newcomers[i] })),
  };
  const wave2 = [...lines.slice(half), JSON.stringify(late)];
  let ratingService: ReturnType<LeaderboardWorld['service']>;
  let dir: string;
  /** Before the first event; between the waves (wave 1 committed, wave 2 not yet produced). */
  let beforeFirst: string;
  let between: string;
  /** `ranking replay` of `ranking export --log --until between`. */
  let replayed: any;
  let exported: string[];

  const ranking = (...args: string[]) =>
    run(process.execPath, ['bin/ranking.js', ...args], {
      maxBuffer: 1 << 26,
      env: { ...process.env, DATABASE_URL: world.databaseUrl },
    });

  /** Every message applied by the rating service and by the boards. */
  const settled = async () => {
    await waitFor(() => world.drained(), { timeout: 120_000, interval: 250, what: 'the drain' });
    await waitFor(
      async () => (await world.db.query('SELECT count(*) AS n FROM outbox'))[0].n === '0',
      { timeout: 60_000, interval: 250, what: 'the outbox' },
    );
    await waitFor(() => world.caughtUp(), { timeout: 60_000, interval: 250, what: 'caught up' });
  };

  /** Every row of a board, `limit` a page, following the cursors. */
  const pages = async (ladder: string, query: string, limit: number) => {
    const rows: any[] = [];
    let cursor: string | null = null;
    let first: any;
    for (;;) {
      const { status, body } = await world.get(
        `/ladders/${ladder}/leaderboard?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      if (status !== 200) throw new Error(`${status} ${JSON.stringify(body)}`);
      first ??= body;
      rows.push(...body.rows);
      cursor = body.nextCursor;
      if (!cursor) return { head: first, rows };
    }
  };
  const shown = (rows: any[]) => rows.map((r) => ({ rank: r.rank, ...project(r.player, r) }));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'point-in-time-'));
    await world.setUp();
    ratingService = world.service();
    ratingService.start();
    await world.startLeaderboard();
    beforeFirst = new Date().toISOString();
    await world.produce(wave1);
    await settled();
    between = new Date().toISOString();
    await world.produce(wave2);
    await settled();
    const log = join(dir, 'prefix.ndjson');
    const out = join(dir, 'prefix.json');
    await ranking('export', '--log', log, '--until', between);
    await ranking('replay', '--events', log, '--out', out);
    exported = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
    replayed = JSON.parse(await readFile(out, 'utf8'));
  }, 300_000);

  afterAll(async () => {
    await world.tearDownAll(ratingService);
    await rm(dir, { recursive: true, force: true });
  });

  it('the exported prefix is wave 1 as the rating service accepted it, and wave 2 changed the boards since (corrections of wave-1 games and closes included)', async () => {
    const ids = (texts: readonly string[]) =>
      texts.flatMap((t) => {
        try {
          return [JSON.parse(t).id as string];
        } catch {
          return [];
        }
      });
    const stored: { event_id: string }[] = await world.db.query('SELECT event_id FROM event_store');
    const all = new Set(stored.map((r) => r.event_id));
    expect(new Set(ids(exported))).toEqual(new Set(ids(wave1).filter((id) => all.has(id))));
    const gameId = (t: string) => /"gameId":"([^"]+)"/.exec(t)?.[1] ?? '';
    const wave1Games = new Set(
      wave1.flatMap((t) => (t.includes('"game.finished"') ? [gameId(t)] : [])),
    );
    const corrections = wave2.filter(
      (t) => t.includes('"game.corrected"') && wave1Games.has(gameId(t)),
    );
    expect(corrections.length).toBeGreaterThan(0);
    expect(exported.some((t) => t.includes('"period.closed"'))).toBe(true);
    expect(wave2.some((t) => t.includes('"period.closed"'))).toBe(true);
  });

  it('given the instant between the waves, then every board equals ranking replay of ranking export --log --until it: ranks, ties and eligibility', async () => {
    let tied = 0;
    let unranked = 0;
    let changedSince = 0;
    for (const ladder of boardLadders) {
      const expected = boardOfReplay(replayed, ladder.id);
      const { head, rows } = await pages(ladder.id, `at=${encodeURIComponent(between)}`, 7);
      expect({ ladder: ladder.id, rows: shown(rows) }).toEqual({
        ladder: ladder.id,
        rows: expected,
      });
      expect(head).toMatchObject({
        ladder: ladder.id,
        view: 'live',
        live: false,
        at: between,
        total: expected.length,
      });
      expect(Date.parse(head.updatedAt)).toBeLessThanOrEqual(Date.parse(between));
      tied += expected.filter((r, i) => i > 0 && expected[i - 1]!.rank === r.rank).length;
      const players: any[] = Object.values(replayed.ladders[ladder.id]?.players ?? {});
      unranked += players.filter((p) => !p.ranked && p.games > 0).length;
      const live = await pages(ladder.id, 'view=live', 200);
      if (JSON.stringify(shown(live.rows)) !== JSON.stringify(expected)) changedSince++;
    }
    // The instant exercised shared ranks and i.Game's 20-game eligibility, and is not the end.
    expect(tied).toBeGreaterThan(0);
    expect(unranked).toBeGreaterThan(0);
    expect(changedSince).toBe(boardLadders.length);
  });

  it('given the instant between the waves, then a player is as the replay of the prefix has them, with their rank on that board; one who first played later had not played then', async () => {
    for (const ladder of boardLadders) {
      const expected = boardOfReplay(replayed, ladder.id);
      const players = replayed.ladders[ladder.id].players as Record<string, any>;
      const unranked = Object.keys(players).find(
        (id) => !players[id].ranked && players[id].games > 0,
      );
      for (const id of [expected[0]!.player, expected.at(-1)!.player, unranked]) {
        if (id === undefined) continue;
        const { status, body } = await world.get(
          `/ladders/${ladder.id}/players/${encodeURIComponent(id)}?around=2&at=${encodeURIComponent(between)}`,
        );
        expect(status).toBe(200);
        const row = expected.find((r) => r.player === id);
        expect({ ...project(id, body), ranked: body.ranked, rank: body.live.rank }).toEqual({
          ...project(id, players[id]),
          ranked: players[id].ranked,
          rank: row?.rank ?? null,
        });
        expect(body).toMatchObject({ ladder: ladder.id, at: between, played: true });
        expect(body.live).toMatchObject({ live: false, at: between, total: expected.length });
        if (row) {
          const index = expected.indexOf(row);
          expect(shown(body.live.around)).toEqual(
            expected.slice(Math.max(0, index - 2), index + 3),
          );
        } else expect(body.live.around).toEqual([]);
      }
    }
    expect(replayed.ladders['qq-gomoku'].players[newcomers[0]!]).toBeUndefined();
    const { status, body } = await world.get(
      `/ladders/qq-gomoku/players/${newcomers[0]}?at=${encodeURIComponent(between)}`,
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ player: newcomers[0], played: false, ranked: false });
    expect(body.rating).toBeUndefined();
    expect(body.live).toMatchObject({ rank: null, around: [] });
  });

  it('given the instant now, then the board and a player are the live ones', async () => {
    const at = encodeURIComponent(new Date().toISOString());
    for (const ladder of boardLadders) {
      const live = await pages(ladder.id, 'view=live', 200);
      const asOf = await pages(ladder.id, `at=${at}`, 200);
      expect(shown(asOf.rows)).toEqual(shown(live.rows));
      expect(asOf.head.total).toBe(live.head.total);
      const third = live.rows[2];
      const [a, b] = await Promise.all([
        world.get(`/ladders/${ladder.id}/players/${encodeURIComponent(third.player)}?around=1`),
        world.get(
          `/ladders/${ladder.id}/players/${encodeURIComponent(third.player)}?around=1&at=${at}`,
        ),
      ]);
      expect({ ...project(third.player, b.body), rank: b.body.live.rank }).toEqual({
        ...project(third.player, a.body),
        rank: a.body.live.rank,
      });
      expect(b.body.live.around).toEqual(a.body.live.around);
    }
  });

  it('given an instant before the ladder’s first event, then an empty board, not an error', async () => {
    for (const ladder of boardLadders) {
      const { status, body } = await world.get(
        `/ladders/${ladder.id}/leaderboard?at=${encodeURIComponent(beforeFirst)}`,
      );
      expect(status).toBe(200);
      expect(body).toEqual({
        ladder: ladder.id,
        view: 'live',
        live: false,
        at: beforeFirst,
        updatedAt: null,
        total: 0,
        from: 1,
        rows: [],
        nextCursor: null,
      });
    }
    const player = Object.keys(replayed.ladders['qq-gomoku'].players)[0]!;
    const { status, body } = await world.get(
      `/ladders/qq-gomoku/players/${player}?at=${encodeURIComponent(beforeFirst)}`,
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ played: false, ranked: false, live: { total: 0, rank: null } });
  });

  it.each([
    ['/ladders/qq-gomoku/leaderboard?at=2999-01-01T00:00:00Z', 400, /is in the future/],
    ['/ladders/qq-gomoku/players/nobody?at=2999-01-01T00:00:00Z', 400, /is in the future/],
    [
      '/ladders/qq-gomoku/leaderboard?at=2026-11-29T13:00:00',
      400,
      /RFC 3339 instant with an offset/,
    ],
    ['/ladders/qq-gomoku/leaderboard?at=last%20tuesday', 400, /RFC 3339 instant/],
    ['/ladders/qq-gomoku/leaderboard?at=2026-02-30T13:00:00Z', 400, /RFC 3339 instant/],
    ['/ladders/qq-gomoku/leaderboard?at=2026-11-29T21:00:00+08:00', 400, /%2B/],
    ['/ladders/qq-gomoku/players/nobody?at=yesterday', 400, /RFC 3339 instant/],
    [
      '/ladders/qq-gomoku/leaderboard?at=2026-11-29T13:00:00Z&view=daily',
      400,
      /cannot be combined with view=daily or date/,
    ],
    [
      '/ladders/qq-gomoku/leaderboard?at=2026-11-29T13:00:00Z&date=2026-11-29',
      400,
      /cannot be combined/,
    ],
    ['/ladders/qq-gomoku/players/nobody?at=2026-11-29T13:00:00Z', 404, /has no games/],
    ['/ladders/igame-gomoku-casual/leaderboard?at=2026-11-29T13:00:00Z', 404, /no leaderboard/],
  ])('GET %s answers %i with a clear message', async (path, status, message) => {
    const answer = await world.get(path);
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ type: 'about:blank', status });
    expect(answer.body.detail).toMatch(message);
  });

  it.each([
    [['--until', '2999-01-01T00:00:00Z'], /--until 2999-01-01T00:00:00.000Z is in the future/],
    [['--until', '2026-11-29T13:00:00'], /must be an RFC 3339 instant with an offset/],
    [['--until', '2026-11-29T13:00:00Z', '--standings', 'x.json'], /--until applies to --log only/],
  ])('ranking export --log %j refuses with a clear message', async (flags, message) => {
    const failed: unknown = await ranking('export', '--log', join(dir, 'x.ndjson'), ...flags).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toMatch(message);
  });

  it('the OpenAPI document describes at and the answers’ schemas', async () => {
    const { body } = await world.get('/docs/json');
    const names = (operation: { parameters: { name: string }[] }) =>
      operation.parameters.map((p) => p.name);
    const board = body.paths['/v1/ladders/{ladder}/leaderboard'].get;
    expect(names(board)).toContain('at');
    expect(board.responses['200'].content['application/json'].schema.$ref).toMatch(/BoardPage$/);
    expect(board.responses['400']).toBeDefined();
    const player = body.paths['/v1/ladders/{ladder}/players/{player}'].get;
    expect(names(player)).toContain('at');
    expect(body.components.schemas.Player.properties.played).toBeDefined();
  });
});
