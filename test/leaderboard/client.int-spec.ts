import { createRankingClient, type Problem, type RankingClient } from '@ranking/client';
import { generateEvents } from '@ranking/generator';
import { ladderRegistry } from '@ranking/rating';
import { waitFor } from '@ranking/testing';
import { DEMO_TOURNAMENTS, LeaderboardWorld } from './leaderboard-world.js';

/**
 * The generated client (libs/client, from the committed OpenAPI document) against the built
 * leaderboard service on the real PostgreSQL, Kafka and Redis: what an integrator writes, typed
 * end to end, gets the answers the document promises: data, problems, 304s.
 */
describe('the typed client against the live API', () => {
  const ladders = ladderRegistry();
  const world = new LeaderboardWorld(ladders);
  const lines = [
    ...generateEvents({ seed: 31, events: 1500, closes: true, days: 3, playersPerLadder: 20 }),
  ];
  const LADDER = 'igame-gomoku';
  let rating: ReturnType<LeaderboardWorld['service']>;
  let client: RankingClient;

  beforeAll(async () => {
    rating = await world.serving(lines, { RANKING_TOURNAMENTS_FILE: DEMO_TOURNAMENTS });
    client = createRankingClient(`http://127.0.0.1:${world.port}`);
    const boards = async () =>
      (await client.GET('/v1/ladders/{ladder}/boards', { params: { path: { ladder: LADDER } } }))
        .data?.boards ?? [];
    await waitFor(async () => (await boards()).some((b) => b.players > 0), {
      timeout: 60_000,
      interval: 250,
      what: 'a daily board with players',
    });
    await waitFor(() => world.settled(), { timeout: 60_000, interval: 250, what: 'caught up' });
  }, 240_000);

  afterAll(async () => {
    await world.tearDownAll(rating);
  });

  it('given the ladders and a daily board, then the client reads them typed, and a second read with the ETag is a 304', async () => {
    const { data: list, response } = await client.GET('/v1/ladders');
    expect(response.status).toBe(200);
    expect(list!.ladders.map((l) => l.id)).toContain(LADDER);

    const { data: boards } = await client.GET('/v1/ladders/{ladder}/boards', {
      params: { path: { ladder: LADDER } },
    });
    const date = boards!.boards.find((b) => b.players > 0)!.date;
    const first = await client.GET('/v1/ladders/{ladder}/leaderboard', {
      params: { path: { ladder: LADDER }, query: { date, limit: 3 } },
    });
    expect(first.response.status).toBe(200);
    expect(first.data!.rows.length).toBeGreaterThan(0);
    expect(first.data!.rows[0]).toMatchObject({ rank: 1, player: expect.any(String) });
    const etag = first.response.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);

    const again = await client.GET('/v1/ladders/{ladder}/leaderboard', {
      params: { path: { ladder: LADDER }, query: { date, limit: 3 } },
      headers: { 'if-none-match': etag! },
    });
    expect(again.response.status).toBe(304);
    expect(again.data).toBeUndefined();
  });

  it('given a player of the board, then the client reads the player and a prediction of a game', async () => {
    const { data: page } = await client.GET('/v1/ladders/{ladder}/leaderboard', {
      params: { path: { ladder: LADDER }, query: { view: 'live', limit: 2 } },
    });
    const [a, b] = page!.rows.map((r) => r.player);
    const { data: player } = await client.GET('/v1/ladders/{ladder}/players/{player}', {
      params: { path: { ladder: LADDER, player: a! } },
    });
    expect(player).toMatchObject({ player: a, ladder: LADDER, ranked: expect.any(Boolean) });

    const { data: prediction, response } = await client.POST('/v1/ladders/{ladder}/predict', {
      params: { path: { ladder: LADDER } },
      body: { teams: [[a!], [b!]] },
    });
    expect(response.status).toBe(200);
    expect(prediction!.teams).toHaveLength(2);
    expect(prediction!.matchQuality).toBeGreaterThan(0);
  });

  it('given the tournaments, then the client lists them and reads one', async () => {
    const { data: list } = await client.GET('/v1/tournaments');
    const id = list!.tournaments[0]!.id;
    const { data: tournament, response } = await client.GET('/v1/tournaments/{id}', {
      params: { path: { id } },
    });
    expect(response.status).toBe(200);
    expect(tournament).toMatchObject({ id });
  });

  it('given an unknown ladder or a bad parameter, then the error is the problem document the client types, with the request id', async () => {
    const missing = await client.GET('/v1/ladders/{ladder}/boards', {
      params: { path: { ladder: 'no-such-ladder' } },
      headers: { 'x-request-id': 'client-test-404' },
    });
    expect(missing.data).toBeUndefined();
    const problem: Problem = missing.error!;
    expect(problem).toMatchObject({ status: 404, requestId: 'client-test-404' });
    expect(missing.response.headers.get('content-type')).toMatch(/^application\/problem\+json/);

    const bad = await client.GET('/v1/ladders/{ladder}/leaderboard', {
      params: { path: { ladder: LADDER }, query: { limit: 0 } },
    });
    expect(bad.response.status).toBe(400);
    expect(bad.error!.errors!.length).toBeGreaterThan(0);
  });
});
