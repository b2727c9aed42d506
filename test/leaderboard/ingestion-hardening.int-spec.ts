/* eslint-disable @typescript-eslint/no-explicit-any -- the API's JSON answers are read untyped */
import { execFile } from 'node:child_process';
import { userInfo } from 'node:os';
import { promisify } from 'node:util';
import { issueServiceToken, type TokenScope } from '@ranking/ingestion';
import { ServiceTokenRepository } from '@ranking/persistence';
import { ladderRegistry } from '@ranking/rating';
import { gameResult, PrivateRedis, readTopics, type TestProducer, waitFor } from '@ranking/testing';
import { Redis } from 'ioredis';
import { freePort, LeaderboardWorld } from './leaderboard-world.js';
import { OpenApiAnswers } from './openapi-answers.js';

const execute = promisify(execFile);

const PER_TOKEN = 4;
const BODY_LIMIT = 131_072;
const RETENTION_DAYS = 10;

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/**
 * HTTP ingestion hardened (ADR 42), against the built leaderboard service on the real Kafka and
 * PostgreSQL and a Redis of its own (stopped in the last test): the token-holders' routes
 * authenticate before the body is read; POST /v1/games' limit counts tokens by id and fails
 * closed while Redis is away; their answers are never stored by a cache; an id outside the
 * contract leaves no receipt; receipts past their retention are deleted; tokens expire by
 * default and name their issuer.
 */
describe('HTTP ingestion hardened: authentication first, limits per token, no-store, retention', () => {
  const openapi = new OpenApiAnswers();
  const undocumented: string[] = [];
  let redis: PrivateRedis;
  let world: LeaderboardWorld;
  let run = 0;

  const cli = async (...args: string[]): Promise<any> => {
    const { stdout } = await execute(process.execPath, ['bin/ranking.js', 'token', ...args], {
      env: { ...process.env, DATABASE_URL: world.databaseUrl, LOG_LEVEL: 'warn' },
    });
    return JSON.parse(stdout);
  };
  /** The producer every ingest token of the suite belongs to (ADR 39): ids begin `hs:`. */
  let hs: TestProducer;
  const issue = async (service: string, scopes: TokenScope[] = ['ingest'], expiresAt?: Date) => {
    const issued = issueServiceToken();
    await new ServiceTokenRepository(world.sql).issue({
      tokenId: issued.tokenId,
      service,
      producer: scopes.includes('ingest') ? hs.name : null,
      ladders: ['igame-gomoku'],
      scopes,
      digest: issued.digest,
      expiresAt: expiresAt ?? null,
      issuedBy: 'hardening-suite',
    });
    return issued;
  };

  const call = async (
    method: 'GET' | 'HEAD' | 'POST',
    path: string,
    { authorization, raw }: { authorization?: string; raw?: string } = {},
  ): Promise<Answer> => {
    const res = await fetch(`http://127.0.0.1:${world.port}${path}`, {
      method,
      headers: {
        ...(authorization !== undefined ? { authorization } : {}),
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      },
      ...(method === 'POST' ? { body: raw } : {}),
    });
    const text = await res.text();
    if (method !== 'HEAD' && path.startsWith('/v1/'))
      undocumented.push(
        ...openapi.problems(method, path, {
          status: res.status,
          contentType: res.headers.get('content-type'),
          text,
        }),
      );
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, headers: res.headers, body };
  };
  const bearer = (token: string) => `Bearer ${token}`;
  const post = (authorization: string | undefined, body: unknown) =>
    call('POST', '/v1/games', { authorization, raw: JSON.stringify(body) });
  const id = (name: string) => `hs:${name}-${++run}`;
  const intakeCount = async (): Promise<number> => {
    const read = await readTopics(world.kafka, [hs.topic]);
    return [...read.get(hs.topic)!.values()].flat().length;
  };
  const receiptIds = async (): Promise<string[]> =>
    (
      await world.db.query<{ event_id: string }[]>(
        'SELECT event_id FROM ingest_receipts ORDER BY event_id',
      )
    ).map((r) => r.event_id);

  beforeAll(async () => {
    redis = new PrivateRedis(await freePort());
    await redis.start();
    world = new LeaderboardWorld(ladderRegistry(), redis.url);
    await world.setUp();
    hs = await world.addProducer('hs', ['igame-gomoku']);
    // Receipts from before the service starts: 3,000 past the retention, 20 within it.
    await world.db.query(
      `INSERT INTO ingest_receipts (event_id, producer, ladder, digest, status, received_at)
       SELECT 'stale:' || g, 'gomoku', 'igame-gomoku', sha256(g::text::bytea), 'accepted',
              now() - make_interval(days => $1::int + 1) - g * interval '1 minute'
       FROM generate_series(1, 3000) g
       UNION ALL
       SELECT 'kept:' || g, 'gomoku', 'igame-gomoku', sha256(g::text::bytea), 'rejected',
              now() - make_interval(days => $1::int - 1)
       FROM generate_series(1, 20) g`,
      [RETENTION_DAYS],
    );
    await world.startLeaderboard({
      RATE_LIMIT_PER_MINUTE: '1000',
      INGEST_REQUESTS_PER_MINUTE: String(PER_TOKEN),
      INGEST_BODY_LIMIT_BYTES: String(BODY_LIMIT),
      INGEST_RECEIPT_RETENTION_DAYS: String(RETENTION_DAYS),
    });
  }, 120_000);

  afterAll(async () => {
    await world?.leaderboard?.stop();
    await world?.tearDown();
    await redis?.stop();
  });

  afterEach(() => {
    expect(undocumented).toEqual([]);
    undocumented.length = 0;
  });

  it('Given receipts past INGEST_RECEIPT_RETENTION_DAYS when the service starts, Then it deletes them and keeps the younger ones', async () => {
    await waitFor(
      async () =>
        (
          await world.db.query<{ n: string }[]>(
            "SELECT count(*) AS n FROM ingest_receipts WHERE event_id LIKE 'stale:%'",
          )
        )[0]!.n === '0',
      { timeout: 30_000, interval: 200, what: 'the stale receipts deleted' },
    );
    const kept = (await receiptIds()).filter((r) => r.startsWith('kept:'));
    expect(kept).toHaveLength(20);
    const metrics = await fetch(`http://127.0.0.1:${world.port}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/^leaderboard_ingest_receipts_purged_total 3000$/m);
  });

  it('Given no token, a malformed, unknown or expired one, Then a broken body or one over INGEST_BODY_LIMIT_BYTES is answered 401 with the challenge, not 400 or 413: the body is not read', async () => {
    const before = await intakeCount();
    const expired = await issue('gomoku-expired', ['ingest'], new Date(Date.now() - 1000));
    const huge = JSON.stringify([gameResult(id('huge'), { note: 'x'.repeat(BODY_LIMIT) })]);
    for (const authorization of [
      undefined,
      'Basic Zm9vOmJhcg==',
      'Bearer not-a-token',
      bearer(`rk_0123456789ab_${'A'.repeat(43)}`),
      bearer(expired.token),
    ])
      for (const raw of ['{', huge]) {
        const answer = await call('POST', '/v1/games', { authorization, raw });
        expect({ authorization, size: raw.length, status: answer.status }).toEqual({
          authorization,
          size: raw.length,
          status: 401,
        });
        expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer realm="ranking"/);
        expect(answer.headers.get('cache-control')).toBe('no-store');
        expect(answer.body).toMatchObject({ status: 401, instance: '/v1/games' });
      }
    // The status route, and the HEAD Fastify adds to it, as well.
    expect((await call('GET', '/v1/events/x')).status).toBe(401);
    expect((await call('HEAD', '/v1/events/x')).status).toBe(401);
    // There is no unversioned alias of the token routes to go round them.
    expect((await call('POST', '/games', { raw: '[]' })).status).toBe(404);
    expect(await intakeCount()).toBe(before);
  });

  it('Given a token of the route’s scope, Then the same bodies are read and refused 400 and 413; a token of another scope is refused 403 before the body is read', async () => {
    const ingest = await issue('gomoku-body');
    const review = await issue('support-body', ['review']);
    const huge = JSON.stringify([gameResult(id('huge'), { note: 'x'.repeat(BODY_LIMIT) })]);
    const broken = await call('POST', '/v1/games', {
      authorization: bearer(ingest.token),
      raw: '{',
    });
    expect(broken.status).toBe(400);
    const large = await call('POST', '/v1/games', {
      authorization: bearer(ingest.token),
      raw: huge,
    });
    expect(large.status).toBe(413);
    for (const raw of ['{', huge]) {
      const refused = await call('POST', '/v1/games', { authorization: bearer(review.token), raw });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toContain('not ingest');
      expect(refused.headers.get('www-authenticate')).toBeNull();
    }
    const reviewRoute = await call('GET', '/review/api/whoami', {
      authorization: bearer(ingest.token),
    });
    expect(reviewRoute.status).toBe(403);
    expect(reviewRoute.body.detail).toContain('not review');
  });

  it('Given a token, Then its POST /v1/games budget is counted by its id: "Bearer rk_…", "bearer  rk_…" and "BEARER rk_…" spend one budget, besides the per-client limit; another token has its own', async () => {
    const token = await issue('gomoku-budget');
    const spellings = [
      `Bearer ${token.token}`,
      `bearer  ${token.token}`,
      `BEARER ${token.token}`,
      ` Bearer   ${token.token} `,
    ];
    const statuses: number[] = [];
    for (const authorization of spellings)
      statuses.push((await post(authorization, gameResult(id('budget')))).status);
    expect(statuses).toEqual(Array<number>(PER_TOKEN).fill(202));
    const over = await post(`bearer ${token.token}`, gameResult(id('budget')));
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(over.body.detail).toMatch(
      new RegExp(`^over ${PER_TOKEN} requests a minute from this token`),
    );
    // One key, by the token's id: no digest of a header, nothing for tokens never authenticated
    // (each key of the suite's is a token's id).
    // (The plugin puts the route of a limiter made by createRateLimit in its keys: none here.)
    const keys = new Redis(redis.url);
    try {
      const counted = await keys.keys(`${world.redisPrefix}rate-limit:*ingest:*`);
      expect(counted.filter((k) => k.endsWith(`ingest:${token.tokenId}`))).toHaveLength(1);
      for (const key of counted) expect(key).toMatch(/ingest:[0-9a-f]{12}$/);
    } finally {
      keys.disconnect();
    }
    const other = await issue('gomoku-budget-2');
    expect((await post(bearer(other.token), gameResult(id('other')))).status).toBe(202);
  });

  it('Given the token-holders’ routes, Then every answer, 200 and 202 as well as refusals, is Cache-Control: no-store', async () => {
    const ingest = await issue('gomoku-cache');
    const review = await issue('support-cache', ['review']);
    const g = gameResult(id('cached'));
    const sent = await post(bearer(ingest.token), g);
    expect(sent.status).toBe(202);
    const answers = {
      sent,
      status: await call('GET', `/v1/events/${encodeURIComponent(g.id as string)}`, {
        authorization: bearer(ingest.token),
      }),
      head: await call('HEAD', `/v1/events/${encodeURIComponent(g.id as string)}`, {
        authorization: bearer(ingest.token),
      }),
      unknown: await call('GET', '/v1/events/hs%3Anever', { authorization: bearer(ingest.token) }),
      whoami: await call('GET', '/review/api/whoami', { authorization: bearer(review.token) }),
      suspects: await call('GET', '/review/api/ladders/igame-gomoku/suspects', {
        authorization: bearer(review.token),
      }),
    };
    expect(
      Object.fromEntries(
        Object.entries(answers).map(([name, a]) => [
          name,
          { status: a.status, cache: a.headers.get('cache-control') },
        ]),
      ),
    ).toEqual({
      sent: { status: 202, cache: 'no-store' },
      status: { status: 200, cache: 'no-store' },
      head: { status: 200, cache: 'no-store' },
      unknown: { status: 404, cache: 'no-store' },
      whoami: { status: 200, cache: 'no-store' },
      suspects: { status: 200, cache: 'no-store' },
    });
    // A public read keeps its own caching.
    expect((await call('GET', '/v1/ladders')).headers.get('cache-control')).toBe('no-cache');
  });

  it('Given events with an id over 128 code points, without a string id or without a string ladder, Then each is refused in the 400 and leaves no receipt; a refused event with a well-formed id and ladder leaves one', async () => {
    const token = await issue('gomoku-ids');
    const before = await receiptIds();
    const noLadder: Record<string, unknown> = gameResult(id('no-ladder'));
    delete noLadder.ladder;
    const refusedOnly = [
      gameResult(`hs:${'x'.repeat(129)}`),
      gameResult(`hs:${'😀'.repeat(200)}`),
      // Past PostgreSQL's largest index entry: once a 500, now a refusal like the others.
      gameResult(`hs:${'y'.repeat(10_000)}`),
      noLadder,
      { ...gameResult(id('numeric-ladder')), ladder: 7 },
      { ...gameResult(id('numeric-id')), id: 42 },
    ];
    const kept = gameResult(id('kept'), { moves: -1 });
    const answer = await post(bearer(token.token), [...refusedOnly, kept]);
    expect(answer.status).toBe(400);
    expect((answer.body.errors as { name: string }[]).map((e) => e.name)).toEqual([
      '/0',
      '/1',
      '/2',
      '/3',
      '/4',
      '/5',
      '/6',
    ]);
    expect((await receiptIds()).filter((r) => !before.includes(r))).toEqual([kept.id]);
    // 128 code points is still an id: the status route reads it.
    const longest = `hs:${'😀'.repeat(125)}`;
    expect((await post(bearer(token.token), gameResult(longest, { moves: -1 }))).status).toBe(400);
    expect((await receiptIds()).includes(longest)).toBe(true);
    const status = await call('GET', `/v1/events/${encodeURIComponent(longest)}`, {
      authorization: bearer(token.token),
    });
    expect(status.body).toMatchObject({ status: 'rejected', by: 'api', code: 'invalid-event' });
  });

  it('Given `ranking token issue` without an expiry, Then the token expires in 90 days and names who issued it; --no-expiry and --issued-by are kept as given', async () => {
    const issuedAt = Date.now();
    const plain = await cli(
      'issue',
      '--producer',
      'hs',
      '--service',
      'gomoku-cli',
      '--ladders',
      'igame-gomoku',
    );
    const days = (Date.parse(plain.expiresAt as string) - issuedAt) / 86_400_000;
    expect(days).toBeGreaterThan(89.99);
    expect(days).toBeLessThan(90.01);
    expect(plain.issuedBy).toBe(process.env.USER || userInfo().username);
    const forever = await cli(
      'issue',
      '--producer',
      'hs',
      '--service',
      'gomoku-cli',
      '--ladders',
      'igame-gomoku',
      '--no-expiry',
      '--issued-by',
      'Ada Operator',
    );
    expect(forever).toMatchObject({ expiresAt: null, issuedBy: 'Ada Operator' });
    const both = cli(
      'issue',
      '--producer',
      'hs',
      '--service',
      'gomoku-cli',
      '--ladders',
      'igame-gomoku',
      '--no-expiry',
      '--expires',
      '2099-01-01T00:00:00Z',
    );
    await expect(both).rejects.toThrow(/--expires and --no-expiry contradict each other/);
    const listed = ((await cli('list')).tokens as any[]).filter((t) => t.service === 'gomoku-cli');
    expect(listed).toEqual([
      expect.objectContaining({
        tokenId: plain.tokenId,
        issuedBy: plain.issuedBy,
        expiresAt: plain.expiresAt,
      }),
      expect.objectContaining({
        tokenId: forever.tokenId,
        issuedBy: 'Ada Operator',
        expiresAt: null,
      }),
    ]);
    expect((await post(bearer(plain.token as string), gameResult(id('cli')))).status).toBe(202);
  });

  it('Given Redis away, Then POST /v1/games with a valid token is 503 with Retry-After and nothing is sent (the per-token limit fails closed), while a request without a token is still 401 and the public reads are still let through', async () => {
    const token = await issue('gomoku-redis');
    const before = await intakeCount();
    await redis.stop();
    const refused = await post(bearer(token.token), gameResult(id('away')));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(refused.body).toMatchObject({ status: 503, instance: '/v1/games' });
    expect(refused.body.detail).toMatch(
      /request limits \(Redis\) is unavailable.*nothing was sent/,
    );
    expect((await post(undefined, gameResult(id('away')))).status).toBe(401);
    // The per-client limit lets public reads through; this one reads PostgreSQL only.
    const history = await call('GET', '/v1/ladders/igame-gomoku/players/nobody/history');
    expect(history.status).toBe(404);
    expect(history.body.detail).toContain('nobody');
    expect(await intakeCount()).toBe(before);
  });
});
