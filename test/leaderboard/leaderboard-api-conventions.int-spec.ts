/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- the API's JSON answers are read untyped */
import { generateEvents } from '@ranking/generator';
import { issueServiceToken } from '@ranking/ingestion';
import { ServiceTokenRepository } from '@ranking/persistence';
import { ladderRegistry } from '@ranking/rating';
import { sample, waitFor } from '@ranking/testing';
import { DEMO_TOURNAMENTS, LeaderboardWorld } from './leaderboard-world.js';
import { committedOpenApi, OpenApiAnswers, type RawAnswer } from './openapi-answers.js';

interface Reply extends RawAnswer {
  readonly headers: Headers;
  readonly body: any;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PROBLEM = 'application/problem+json; charset=utf-8';

/**
 * The API's conventions (ADR 30) against the built service and the real PostgreSQL, Kafka and
 * Redis: /v1 and the deprecated unversioned aliases, problem documents on every error path,
 * request ids in answers and log lines, ETags and Cache-Control, and the committed OpenAPI
 * document against what the service serves and answers.
 */
describe('leaderboard API conventions: /v1, problem details, request ids, caching, OpenAPI', () => {
  const ladders = ladderRegistry();
  const world = new LeaderboardWorld(ladders);
  const lines = [
    ...generateEvents({ seed: 30, events: 2000, closes: true, days: 4, playersPerLadder: 30 }),
  ];
  let rating: ReturnType<LeaderboardWorld['service']>;
  const LADDER = 'qq-gomoku';
  let dates: string[] = [];
  let players: string[] = [];

  const call = async (
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<Reply> => {
    const res = await fetch(`http://127.0.0.1:${world.port}${path}`, init);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return {
      status: res.status,
      headers: res.headers,
      contentType: res.headers.get('content-type'),
      text,
      body,
    };
  };

  /** A problem document as the API answers it, with the request id of its X-Request-Id. */
  const expectProblem = (reply: Reply, status: number, instance: string) => {
    expect({ status: reply.status, type: reply.contentType }).toEqual({ status, type: PROBLEM });
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.body).toMatchObject({
      type: 'about:blank',
      title: expect.any(String),
      status,
      detail: expect.any(String),
      instance,
      requestId: reply.headers.get('x-request-id'),
    });
  };

  beforeAll(async () => {
    rating = await world.serving(lines, { RANKING_TOURNAMENTS_FILE: DEMO_TOURNAMENTS });
    await waitFor(
      async () => (await world.get(`/v1/ladders/${LADDER}/boards`)).body.boards?.length >= 2,
      { timeout: 60_000, interval: 250, what: 'two daily boards' },
    );
    await waitFor(() => world.settled(), { timeout: 60_000, interval: 250, what: 'caught up' });
    dates = (await world.get(`/v1/ladders/${LADDER}/boards`)).body.boards.map((b: any) => b.date);
    players = (
      await world.get(`/v1/ladders/${LADDER}/leaderboard?view=live&limit=5`)
    ).body.rows.map((r: any) => r.player);
  }, 240_000);

  afterAll(async () => {
    await world.tearDownAll(rating);
  });

  it('given the /v1 paths, then each answers; the unversioned path of before answers the same, marked deprecated with a link to its successor, and counted', async () => {
    const paths = [
      '/ladders',
      `/ladders/${LADDER}/boards`,
      `/ladders/${LADDER}/leaderboard?limit=3`,
      `/ladders/${LADDER}/leaderboard?view=live&limit=3`,
      `/ladders/${LADDER}/players/${players[0]}`,
      `/ladders/${LADDER}/player/history?id=${players[0]}&limit=2`,
      '/tournaments',
      '/tournaments/demo-cup',
    ];
    for (const path of paths) {
      const current = await call(`/v1${path}`);
      const old = await call(path);
      expect({ path, status: current.status }).toEqual({ path, status: 200 });
      expect(current.headers.get('deprecation')).toBeNull();
      expect({ path, status: old.status, body: old.body }).toEqual({
        path,
        status: 200,
        body: current.body,
      });
      expect(old.headers.get('deprecation')).toBe('@1796428800');
      expect(old.headers.get('link')).toBe(`</v1${path.split('?')[0]}>; rel="successor-version"`);
    }
    const metrics = (await call('/metrics')).text;
    expect(
      sample(metrics, 'leaderboard_unversioned_requests_total', { route: '/v1/ladders' }),
    ).toBe(1);
    // Probes, the page and its files, and /docs have no version; the API has no other.
    for (const path of ['/health/live', '/health/ready', '/metrics', '/', '/app.js', '/docs/json'])
      expect({ path, status: (await call(path)).status }).toEqual({ path, status: 200 });
    expectProblem(await call('/v1/health'), 404, '/v1/health');
    expectProblem(await call('/v2/ladders'), 404, '/v2/ladders');
  });

  it('given an acceptable X-Request-Id, then the answer echoes it and the access line carries it; any other is replaced by a new UUID', async () => {
    const id = `conv-${Date.now()}.a:b~c_d`;
    const answered = await call('/v1/ladders', { headers: { 'x-request-id': id } });
    expect(answered.headers.get('x-request-id')).toBe(id);
    await waitFor(() => world.leaderboard.logLines.some((l) => l.requestId === id), {
      timeout: 5_000,
      interval: 50,
      what: 'the access line',
    });
    expect(world.leaderboard.logLines.find((l) => l.requestId === id)).toMatchObject({
      level: 'info',
      context: 'http',
      message: 'GET /v1/ladders 200',
      method: 'GET',
      path: '/v1/ladders',
      status: 200,
      durationMs: expect.any(Number),
      requestId: id,
    });

    for (const refused of ['two words', 'x'.repeat(129), '<script>', 'a,b', ''])
      expect(
        (await call('/v1/ladders', { headers: { 'x-request-id': refused } })).headers.get(
          'x-request-id',
        ),
      ).toMatch(UUID);
    const generated = await call('/ladders/no-such/boards');
    expect(generated.headers.get('x-request-id')).toMatch(UUID);
    expect(generated.body.requestId).toBe(generated.headers.get('x-request-id'));
    // The access line names the path the client sent, not the /v1 path it was routed as.
    await waitFor(
      () =>
        world.leaderboard.logLines.some(
          (l) => l.requestId === generated.body.requestId && l.path === '/ladders/no-such/boards',
        ),
      { timeout: 5_000, interval: 50, what: 'the alias access line' },
    );
  });

  it('given a malformed query, then a 400 problem lists each thing wrong; a contradiction found by the handler is listed too', async () => {
    const invalid = await call(`/v1/ladders/${LADDER}/leaderboard?limit=0&view=weekly&extra=1`);
    expectProblem(invalid, 400, `/v1/ladders/${LADDER}/leaderboard`);
    expect(invalid.body.title).toBe('Bad Request');
    expect(invalid.body.errors).toEqual(
      expect.arrayContaining([
        { name: 'limit', in: 'query', detail: 'limit must be at least 1' },
        { name: 'view', in: 'query', detail: 'view must be daily or live' },
        { name: 'extra', in: 'query', detail: 'property extra should not exist' },
      ]),
    );
    // Remembered by the validation pipe: the same answer, its own request id.
    const again = await call(`/v1/ladders/${LADDER}/leaderboard?limit=0&view=weekly&extra=1`);
    expect(again.body.errors).toEqual(invalid.body.errors);
    expect(again.body.requestId).not.toBe(invalid.body.requestId);

    const both = await call(`/v1/ladders/${LADDER}/leaderboard?rank=2&cursor=abc`);
    expectProblem(both, 400, `/v1/ladders/${LADDER}/leaderboard`);
    expect(both.body.errors).toEqual([{ detail: both.body.detail }]);
    expect(both.body.detail).toContain('give one');

    const body = await call(`/v1/ladders/${LADDER}/predict`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ teams: [['a'], ['']] }),
    });
    expectProblem(body, 400, `/v1/ladders/${LADDER}/predict`);
    expect(body.body.detail).toMatch(/^teams\[1\]\[0\] must be a player id/);
  });

  it('given an unknown ladder, board, tournament or path, then a 404 problem says which', async () => {
    const ladder = await call('/v1/ladders/chess/boards');
    expectProblem(ladder, 404, '/v1/ladders/chess/boards');
    expect(ladder.body).toMatchObject({
      title: 'Not Found',
      detail: expect.stringMatching(/^unknown ladder "chess"/),
    });
    expect(ladder.body.errors).toBeUndefined();
    expectProblem(
      await call(`/v1/ladders/${LADDER}/leaderboard?date=2001-01-01`),
      404,
      `/v1/ladders/${LADDER}/leaderboard`,
    );
    expectProblem(await call('/v1/tournaments/nope'), 404, '/v1/tournaments/nope');
    const route = await call('/v1/nothing/here?x=1');
    expectProblem(route, 404, '/v1/nothing/here');
  });

  it('given a body over HTTP_BODY_LIMIT_BYTES, then a 413 problem', async () => {
    const big = await call(`/v1/ladders/${LADDER}/predict`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ teams: [['a'], ['b']], pad: 'x'.repeat(20_000) }),
    });
    expectProblem(big, 413, `/v1/ladders/${LADDER}/predict`);
    expect(big.body.title).toBe('Payload Too Large');
  });

  it('given a dated daily board, then its page has a strong ETag, is public for a day and answers 304 to a matching If-None-Match', async () => {
    const path = `/v1/ladders/${LADDER}/leaderboard?date=${dates[1]}&limit=10`;
    const first = await call(path);
    expect(first.status).toBe(200);
    const tag = first.headers.get('etag')!;
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=86400, immutable');
    for (const header of [tag, `W/${tag}`, `"other", ${tag}`, '*']) {
      const again = await call(path, { headers: { 'if-none-match': header } });
      expect({ header, status: again.status, text: again.text }).toEqual({
        header,
        status: 304,
        text: '',
      });
      expect(again.headers.get('etag')).toBe(tag);
      expect(again.headers.get('cache-control')).toBe('public, max-age=86400, immutable');
    }
    const other = await call(path, { headers: { 'if-none-match': '"other"' } });
    expect(other.status).toBe(200);
    expect(other.text).toBe(first.text);
    // Another page of the board is another resource with its own tag.
    const next = await call(`/v1/ladders/${LADDER}/leaderboard?date=${dates[1]}&limit=10&rank=11`);
    expect(next.headers.get('etag')).not.toBe(tag);
    // The old path is the same resource.
    const old = await call(path.slice(3), { headers: { 'if-none-match': tag } });
    expect(old.status).toBe(304);
  });

  it('given the newest daily board, then a minute of caching and revalidation by ETag; the live board, players and history are no-cache', async () => {
    const newest = await call(`/v1/ladders/${LADDER}/leaderboard?limit=10`);
    expect(newest.headers.get('cache-control')).toBe('public, max-age=60');
    const dated = await call(`/v1/ladders/${LADDER}/leaderboard?date=${dates[0]}&limit=10`);
    expect(newest.text).toBe(dated.text);
    expect(newest.headers.get('etag')).toBe(dated.headers.get('etag'));
    const revalidated = await call(`/v1/ladders/${LADDER}/leaderboard?limit=10`, {
      headers: { 'if-none-match': newest.headers.get('etag')! },
    });
    expect(revalidated.status).toBe(304);

    for (const path of [
      `/v1/ladders/${LADDER}/leaderboard?view=live&limit=10`,
      `/v1/ladders/${LADDER}/leaderboard?at=${encodeURIComponent(new Date().toISOString())}`,
      `/v1/ladders/${LADDER}/players/${players[0]}`,
      `/v1/ladders/${LADDER}/players/${players[0]}/history`,
      `/v1/ladders/${LADDER}/boards`,
      '/v1/ladders',
      '/v1/tournaments',
    ]) {
      const reply = await call(path);
      expect({ path, status: reply.status, cache: reply.headers.get('cache-control') }).toEqual({
        path,
        status: 200,
        cache: 'no-cache',
      });
      expect(reply.headers.get('etag')).toBeNull();
    }
  });

  it('given the committed OpenAPI document, then the service serves exactly it, and every answer, success and error, conforms to it', async () => {
    const served = await call('/docs/json');
    expect(served.body).toEqual(committedOpenApi());

    const check = new OpenApiAnswers();
    const [a, b] = players;
    const post = (path: string, body: string, headers: Record<string, string> = {}) => ({
      path,
      init: { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body },
    });
    // The game servers' routes (ADR 34) take a service token, a producer's (ADR 39).
    await world.addProducer('conventions', [LADDER]);
    const issued = issueServiceToken();
    await new ServiceTokenRepository(world.sql).issue({
      tokenId: issued.tokenId,
      service: 'conventions',
      producer: 'conventions',
      ladders: [LADDER],
      digest: issued.digest,
      expiresAt: null,
      issuedBy: 'conventions-suite',
    });
    const bearer = { authorization: `Bearer ${issued.token}` };
    const game = JSON.parse(
      lines.find((l) => l.includes('"game.finished"') && l.includes(`"${LADDER}"`))!,
    );
    const submitted = { ...game, id: `conventions:${game.id as string}` };
    const asked: {
      path: string;
      init?: { method: string; headers: Record<string, string>; body?: string };
    }[] = [
      { path: '/v1/ladders' },
      { path: `/v1/ladders/${LADDER}/boards` },
      { path: '/v1/ladders/chess/boards' },
      { path: `/v1/ladders/${LADDER}/leaderboard` },
      { path: `/v1/ladders/${LADDER}/leaderboard?date=${dates[1]}&rank=5` },
      { path: `/v1/ladders/${LADDER}/leaderboard?view=live&limit=200` },
      {
        path: `/v1/ladders/${LADDER}/leaderboard?at=${encodeURIComponent(new Date().toISOString())}`,
      },
      { path: `/v1/ladders/${LADDER}/leaderboard?at=2000-01-01T00:00:00Z` },
      { path: `/v1/ladders/${LADDER}/leaderboard?limit=0` },
      { path: `/v1/ladders/${LADDER}/leaderboard?date=2001-01-01` },
      { path: `/v1/ladders/${LADDER}/players?prefix=${a!.slice(0, 2)}` },
      { path: `/v1/ladders/${LADDER}/players` },
      { path: `/v1/ladders/${LADDER}/players/${a}` },
      {
        path: `/v1/ladders/${LADDER}/players/${a}?at=${encodeURIComponent(new Date().toISOString())}`,
      },
      { path: `/v1/ladders/${LADDER}/players/nobody` },
      { path: `/v1/ladders/${LADDER}/players/${a}?around=99` },
      { path: `/v1/ladders/${LADDER}/player?id=${a}` },
      { path: `/v1/ladders/${LADDER}/player?id=` },
      { path: `/v1/ladders/${LADDER}/player/history?id=${a}` },
      { path: `/v1/ladders/${LADDER}/player/history?id=${a}&limit=900` },
      { path: `/v1/ladders/${LADDER}/players/${a}/history?limit=3` },
      { path: `/v1/ladders/${LADDER}/players/nobody/history` },
      { path: `/v1/ladders/${LADDER}/players/${a}/history?cursor=x` },
      { path: `/v1/ladders/${LADDER}/players/${a}/opponents?limit=3` },
      { path: `/v1/ladders/${LADDER}/players/${a}/opponents?limit=0` },
      { path: `/v1/ladders/chess/players/${a}/opponents` },
      post(`/v1/ladders/${LADDER}/predict`, JSON.stringify({ teams: [[a], [b]] })),
      post(`/v1/ladders/${LADDER}/predict`, JSON.stringify({ teams: [[a]] })),
      post(`/v1/ladders/${LADDER}/predict`, JSON.stringify({ pad: 'x'.repeat(20_000) })),
      post('/v1/ladders/chess/predict', JSON.stringify({ teams: [[a], [b]] })),
      { path: '/v1/tournaments' },
      { path: '/v1/tournaments/demo-cup' },
      { path: '/v1/tournaments/nope' },
      post('/v1/games', JSON.stringify(submitted), bearer),
      post('/v1/games', JSON.stringify(submitted)),
      post('/v1/games', JSON.stringify({ ...submitted, id: 'period.closed:x' }), bearer),
      {
        path: `/v1/events/${encodeURIComponent(submitted.id)}`,
        init: { method: 'GET', headers: bearer },
      },
      {
        path: '/v1/events/nothing-known',
        init: { method: 'GET', headers: bearer },
      },
      { path: '/v1/events/nothing-known' },
      // The deprecated aliases are documented as such.
      { path: '/ladders' },
      { path: `/ladders/${LADDER}/leaderboard?limit=2` },
      { path: '/tournaments/nope' },
    ];
    const statuses = new Map<string, Set<number>>();
    const problems: string[] = [];
    for (const { path, init } of asked) {
      const method = init?.method ?? 'GET';
      const reply = await call(path, init);
      problems.push(...check.problems(method, path, reply));
      const key = `${method} ${check.template(path)}`;
      statuses.set(key, new Set([...(statuses.get(key) ?? []), reply.status]));
    }
    expect(problems).toEqual([]);
    // Every /v1 operation was asked, and answered both a success and an error.
    const operations = Object.entries(committedOpenApi().paths as Record<string, any>)
      .filter(([path]) => path.startsWith('/v1/'))
      .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    for (const operation of operations) {
      const seen = [...(statuses.get(operation) ?? [])];
      expect({ operation, success: seen.some((s) => s < 300) }).toEqual({
        operation,
        success: true,
      });
      if (operation !== 'GET /v1/ladders' && operation !== 'GET /v1/tournaments')
        expect({ operation, error: seen.some((s) => s >= 400) }).toEqual({
          operation,
          error: true,
        });
    }
  });

  it('given a fault of the service (a table gone), then a 500 problem that names only the request id, and an error line with it', async () => {
    await world.db.query('ALTER TABLE rating_history RENAME TO rating_history_away');
    try {
      const path = `/v1/ladders/${LADDER}/players/${players[0]}/history`;
      const failed = await call(path);
      expectProblem(failed, 500, path);
      expect(failed.body.title).toBe('Internal Server Error');
      expect(failed.body.detail).not.toMatch(/rating_history/);
      expect(new OpenApiAnswers().problems('GET', path, failed)).toEqual([]);
      const id = failed.body.requestId;
      const lineOf = (level: string) =>
        world.leaderboard.logLines.find(
          (l) => l.context === 'http' && l.level === level && l.requestId === id,
        );
      await waitFor(() => lineOf('error') && lineOf('info'), {
        timeout: 5_000,
        interval: 50,
        what: 'the error line and the access line',
      });
      expect(lineOf('error')).toMatchObject({ error: expect.stringMatching(/rating_history/) });
      expect(lineOf('info')).toMatchObject({ status: 500, path });
    } finally {
      await world.db.query('ALTER TABLE rating_history_away RENAME TO rating_history');
    }
  });
});
