/* eslint-disable @typescript-eslint/no-explicit-any -- the API's JSON answers are read untyped */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createRankingClient, type paths } from '@ranking/client';
import { ladderRegistry } from '@ranking/rating';
import {
  gameResult,
  penaltyEvent,
  readTopics,
  type ServiceProcess,
  type TestProducer,
  type TopicMessage,
  waitFor,
} from '@ranking/testing';
import { LeaderboardWorld } from './leaderboard-world.js';
import { OpenApiAnswers } from './openapi-answers.js';

const execute = promisify(execFile);

const game = gameResult;

/** The body POST /v1/games takes, as the generated client types it. */
type GameBody = paths['/v1/games']['post']['requestBody']['content']['application/json'];

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/**
 * HTTP ingestion (ADR 34) against the built services on the real Kafka, PostgreSQL and Redis:
 * service tokens issued and revoked by the CLI, POST /v1/games onto the intake topic (which the
 * intake service moves and the rating service applies), GET /v1/events/:id, every refusal as a
 * problem document, and every answer as the committed OpenAPI document describes it.
 */
describe('HTTP ingestion: POST /v1/games and GET /v1/events/:id', () => {
  const world = new LeaderboardWorld(ladderRegistry());
  const openapi = new OpenApiAnswers();
  const undocumented: string[] = [];
  let rating: ServiceProcess;
  let intake: ServiceProcess;
  let run = 0;

  const cli = async (...args: string[]): Promise<any> => {
    const { stdout } = await execute(process.execPath, ['bin/ranking.js', 'token', ...args], {
      env: { ...process.env, DATABASE_URL: world.databaseUrl, LOG_LEVEL: 'warn' },
    });
    return JSON.parse(stdout);
  };
  /** The world's producers by name (ADR 39): each test's game server is one. */
  const producers = new Map<string, TestProducer>();
  /** The producer the ids of `id()` are of: the one `issue` issued a token for last. */
  let producer = 'gs';
  /** A producer of these ladders (added once) and a token of it, issued by the CLI. */
  const issue = async (name: string, ladders = 'igame-gomoku,qq-gomoku'): Promise<string> => {
    if (!producers.has(name))
      producers.set(name, await world.addProducer(name, ladders.split(',')));
    producer = name;
    return (await cli('issue', '--producer', name)).token as string;
  };

  const call = async (
    method: 'GET' | 'POST',
    path: string,
    {
      token,
      body,
      raw,
      contentType = 'application/json',
    }: {
      token?: string;
      body?: unknown;
      raw?: string;
      contentType?: string;
    } = {},
  ): Promise<Answer> => {
    const res = await fetch(`http://127.0.0.1:${world.port}${path}`, {
      method,
      headers: {
        ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
        ...(method === 'POST' ? { 'content-type': contentType } : {}),
      },
      ...(method === 'POST' ? { body: raw ?? JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    undocumented.push(
      ...openapi.problems(method, path, {
        status: res.status,
        contentType: res.headers.get('content-type'),
        text,
      }),
    );
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, headers: res.headers, body: parsed };
  };
  const post = (token: string | undefined, body: unknown) =>
    call('POST', '/v1/games', { token, body });
  const status = (token: string | undefined, id: string) =>
    call('GET', `/v1/events/${encodeURIComponent(id)}`, { token });

  /** Every message on the producers' intake topics, in topic, partition and offset order. */
  const intakeMessages = async (): Promise<TopicMessage[]> => {
    const topics = world.producers.map((p) => p.topic);
    if (topics.length === 0) return [];
    const read = await readTopics(world.kafka, topics);
    return topics.flatMap((t) => [...read.get(t)!.values()].flat());
  };
  const storedIds = async (): Promise<string[]> =>
    (
      await world.db.query<{ event_id: string }[]>(
        'SELECT event_id FROM event_store ORDER BY event_id',
      )
    ).map((r) => r.event_id);
  const applied = (ids: readonly string[]) =>
    waitFor(
      async () => {
        const stored = new Set(await storedIds());
        return ids.every((id) => stored.has(id));
      },
      { timeout: 60_000, interval: 200, what: `${ids.length} events applied` },
    );
  /** A unique id for this run's events, in the namespace of the producer of the last token. */
  const id = (name: string) => `${producer}:${name}-${++run}`;

  beforeAll(async () => {
    await world.setUp();
    rating = world.service();
    intake = world.intake();
    rating.start();
    intake.start();
    await world.startLeaderboard({
      INGEST_REQUESTS_PER_MINUTE: '12',
      INGEST_BODY_LIMIT_BYTES: '262144',
    });
  }, 120_000);

  afterAll(async () => {
    await world.tearDownAll(rating, intake);
  });

  afterEach(() => {
    expect(undocumented).toEqual([]);
    undocumented.length = 0;
  });

  it('Given no token, another scheme, a malformed or an unknown token, Then both routes answer 401 with a Bearer challenge and a problem, and nothing is sent', async () => {
    const before = (await intakeMessages()).length;
    const unknown = `rk_0123456789ab_${'A'.repeat(43)}`;
    for (const token of [undefined, 'not-a-token', unknown]) {
      for (const answer of [await post(token, game(id('anon'))), await status(token, 'x')]) {
        expect(answer.status).toBe(401);
        expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer realm="ranking"/);
        expect(answer.body).toMatchObject({ status: 401, requestId: expect.any(String) });
      }
    }
    const basic = await fetch(`http://127.0.0.1:${world.port}/v1/games`, {
      method: 'POST',
      headers: { authorization: 'Basic Zm9vOmJhcg==', 'content-type': 'application/json' },
      body: JSON.stringify(game(id('basic'))),
    });
    expect(basic.status).toBe(401);
    expect((await intakeMessages()).length).toBe(before);
  });

  it('Given a token for the gomoku ladders, When a batch names another ladder, Then 403 names it and nothing is sent', async () => {
    const token = await issue('gomoku-a');
    const before = (await intakeMessages()).length;
    const answer = await post(token, [game(id('ok')), game(id('chess'), { ladder: 'qq-xiangqi' })]);
    expect(answer.status).toBe(403);
    expect(answer.body.detail).toContain('qq-xiangqi');
    expect((await intakeMessages()).length).toBe(before);
  });

  it('Given a batch of 100 games (over the read API body limit) with a void one, Then 202 accepts each, the values lie on the intake topic as sent, each is applied once, and the status says applied, or void and why', async () => {
    const token = await issue('gomoku-b');
    const games = Array.from({ length: 100 }, (_, n) =>
      game(id('batch'), { gameId: `g-batch-${n}`, moves: 30 + (n % 20) }),
    );
    const sameIp = game(id('same-ip'), {
      players: [
        { id: 'carol', result: 'win', side: 'black', first: true, ip: '203.0.113.9' },
        { id: 'dave', result: 'loss', side: 'white', first: false, ip: '203.0.113.9' },
      ],
    });
    const body = [...games, sameIp];
    expect(JSON.stringify(body).length).toBeGreaterThan(16_384);
    const answer = await post(token, body);
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({
      accepted: 101,
      repeats: 0,
      events: body.map((g, index) => ({ index, id: g.id, status: 'accepted' })),
    });

    const sent = new Map(
      (await intakeMessages()).map((m) => [JSON.parse(m.value!.toString()).id as string, m]),
    );
    for (const g of body) {
      const message = sent.get(g.id as string)!;
      expect(message.value!.toString()).toBe(JSON.stringify(g));
      expect(message.key!.toString()).toBe('igame-gomoku');
      expect(message.headers['x-submitted-with']).toMatch(/^gomoku-b\/[0-9a-f]{12}$/);
    }
    await applied(body.map((g) => g.id as string));

    const first = await status(token, games[0]!.id as string);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      id: games[0]!.id,
      status: 'applied',
      ladder: 'igame-gomoku',
      position: expect.stringMatching(/^\d+$/),
    });
    const voided = await status(token, sameIp.id as string);
    expect(voided.body).toMatchObject({ status: 'void', reason: 'same-ip' });
  });

  it('Given games sent and applied, When the same request comes again (and an id twice in one request), Then 202 says repeat, nothing more is sent, and each is stored once', async () => {
    const token = await issue('gomoku-c');
    const games = [game(id('twice')), game(id('twice'))];
    expect((await post(token, games)).body.accepted).toBe(2);
    await applied(games.map((g) => g.id as string));
    const before = await intakeMessages();
    const again = await post(token, [...games, games[0]]);
    expect(again.status).toBe(202);
    expect(again.body).toEqual({
      accepted: 0,
      repeats: 3,
      events: [0, 1, 2].map((index) => ({
        index,
        id: [...games, games[0]][index]!.id,
        status: 'repeat',
      })),
    });
    const inRequest = await post(token, [game(id('dup')), game(`${producer}:dup-${run}`)]);
    expect((inRequest.body.events as { status: string }[]).map((e) => e.status)).toEqual([
      'accepted',
      'repeat',
    ]);
    const after = await intakeMessages();
    expect(after.length).toBe(before.length + 1);
    await applied([`${producer}:dup-${run}`]);
    const stored = await storedIds();
    for (const g of games) expect(stored.filter((s) => s === g.id)).toHaveLength(1);
  });

  it('Given a batch with refused events, Then 400 names each with its index, id and code, none is sent, the status says rejected by the api; and the fixed event is accepted under the same id', async () => {
    const token = await issue('gomoku-d');
    const good = game(id('good'));
    const inconsistent = game(id('both-win'), {
      players: [
        { id: 'erin', result: 'win', side: 'black', first: true, ip: '203.0.113.1' },
        { id: 'frank', result: 'win', side: 'white', first: false, ip: '203.0.113.2' },
      ],
    });
    const privileged = penaltyEvent(id('penalty'));
    const reserved = game(`period.closed:${id('reserved')}`);
    const oversized = game(id('big'), { note: 'x'.repeat(70_000) });
    const foreign = game(`gomoku-z:${id('foreign')}`);
    const before = (await intakeMessages()).length;
    const answer = await post(token, [
      good,
      inconsistent,
      privileged,
      reserved,
      'not an event',
      oversized,
      foreign,
    ]);
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toMatch(/^6 of 7 events were refused/);
    expect(answer.body.errors).toEqual([
      expect.objectContaining({
        name: '/1',
        in: 'body',
        id: inconsistent.id,
        code: 'inconsistent-result',
      }),
      expect.objectContaining({ name: '/2', id: privileged.id, code: 'not-permitted' }),
      expect.objectContaining({ name: '/3', id: reserved.id, code: 'not-permitted' }),
      expect.objectContaining({ name: '/4', code: 'invalid-event' }),
      expect.objectContaining({ name: '/5', code: 'invalid-event' }),
      // Another producer's namespace (ADR 39).
      expect.objectContaining({ name: '/6', id: foreign.id, code: 'not-permitted' }),
    ]);
    expect(answer.body.errors[3].id).toBeUndefined();
    expect((await intakeMessages()).length).toBe(before);

    const refused = await status(token, inconsistent.id as string);
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({
      status: 'rejected',
      by: 'api',
      code: 'inconsistent-result',
    });
    // Nothing was sent: the valid event of the batch is unknown until it is sent.
    expect((await status(token, good.id as string)).status).toBe(404);

    const fixed = game(inconsistent.id as string);
    const resent = await post(token, [good, fixed]);
    expect(resent.body.accepted).toBe(2);
    await applied([good.id as string, fixed.id as string]);
    expect((await status(token, fixed.id as string)).body.status).toBe('applied');
  });

  it('Given an id already applied from the Kafka intake, When a different event is posted under it, Then the status says ignored-as-repeat and the stored event stays', async () => {
    const token = await issue('gomoku-e');
    const original = game(id('first'), { moves: 50 });
    // The producer's own game server sends it over Kafka first.
    const gomokuE = producers.get('gomoku-e')!;
    await world.publishResults(gomokuE, [{ key: 'igame-gomoku', value: JSON.stringify(original) }]);
    await applied([original.id as string]);
    const other = { ...original, moves: 60 };
    expect((await post(token, other)).body.events[0].status).toBe('accepted');
    await waitFor(() => world.intakeDrained(gomokuE), {
      timeout: 60_000,
      interval: 200,
      what: 'the intake',
    });
    const answer = await status(token, original.id as string);
    expect(answer.body).toMatchObject({ status: 'ignored-as-repeat', ladder: 'igame-gomoku' });
    const [row] = await world.db.query<{ payload: string }[]>(
      'SELECT payload::text AS payload FROM event_store WHERE event_id = $1',
      [original.id],
    );
    expect(row!.payload).toBe(JSON.stringify(original));
  });

  it('Given two producers, Then each reads the ids of its own namespace only: another producer’s is 403 whatever is known of it, a ladder outside the token 403, an unknown id of its own 404', async () => {
    const theirs = await issue('gomoku-g');
    const mine = await issue('gomoku-f');
    const xiangqi = await cli('issue', '--producer', 'gomoku-f', '--ladders', 'qq-gomoku');
    const g = game(id('own'));
    expect((await post(mine, g)).status).toBe(202);
    await applied([g.id as string]);
    expect((await status(mine, g.id as string)).body.status).toBe('applied');
    const other = await status(theirs, g.id as string);
    expect(other.status).toBe(403);
    expect(other.body.detail).toContain('not in the namespace of the producer gomoku-g');
    // An event that came by Kafka, on its producer's topic: readable by its producer's tokens.
    const viaKafka = game(id('kafka'));
    await world.publishResults(producers.get('gomoku-f')!, [
      { key: 'igame-gomoku', value: JSON.stringify(viaKafka) },
    ]);
    await applied([viaKafka.id as string]);
    expect((await status(mine, viaKafka.id as string)).body.status).toBe('applied');
    expect((await status(theirs, viaKafka.id as string)).status).toBe(403);
    // A token of the same producer for another of its ladders: not this game's.
    expect((await status(xiangqi.token, viaKafka.id as string)).status).toBe(403);
    const missing = await status(mine, 'gomoku-f:never-sent');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      status: 404,
      instance: '/v1/events/gomoku-f%3Anever-sent',
    });
  });

  it('Given the attacks of before (issue 42), Then a producer can neither take another’s id first nor read another ladder’s events through a refused element', async () => {
    const a = await issue('probe-a', 'igame-gomoku');
    const b = await issue('probe-b', 'qq-gomoku');
    // A posts B's predictable next id for its own ladder: not-permitted, and no receipt.
    const squatted = game('probe-b:g-5480');
    const squat = await post(a, squatted);
    expect(squat.status).toBe(400);
    expect(squat.body.errors).toEqual([
      expect.objectContaining({ id: 'probe-b:g-5480', code: 'not-permitted' }),
    ]);
    expect(
      await world.db.query('SELECT 1 FROM ingest_receipts WHERE event_id = $1', ['probe-b:g-5480']),
    ).toEqual([]);
    // B's real game under that id is accepted, sent and applied, and B reads it.
    const real = game('probe-b:g-5480', { ladder: 'qq-gomoku' });
    const sent = await post(b, real);
    expect(sent.status).toBe(202);
    expect(sent.body.events).toEqual([{ index: 0, id: 'probe-b:g-5480', status: 'accepted' }]);
    await applied(['probe-b:g-5480']);
    expect((await status(b, 'probe-b:g-5480')).body.status).toBe('applied');
    expect((await status(a, 'probe-b:g-5480')).status).toBe(403);
    // A refused element under a reserved id leaves no receipt, and reading it stays refused.
    const close = 'period.closed:qq-gomoku:daily:2026-12-04';
    expect((await post(a, [{ id: close }])).status).toBe(400);
    expect(
      await world.db.query('SELECT 1 FROM ingest_receipts WHERE event_id = $1', [close]),
    ).toEqual([]);
    const read = await status(a, close);
    expect(read.status).toBe(403);
    expect(read.body.detail).toContain('reserved');
  });

  it('Given a token, When it is rotated (a second one issued, the first revoked) with no restart, Then the first is refused from the next request and the second goes on', async () => {
    await issue('gomoku-i', 'igame-gomoku');
    const first = await cli('issue', '--producer', 'gomoku-i');
    const second = await cli('issue', '--producer', 'gomoku-i');
    const g = game(id('rotated'));
    expect((await post(first.token, g)).status).toBe(202);
    expect((await cli('revoke', first.tokenId)).revoked).toBe(true);
    const refused = await post(first.token, game(id('late')));
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toContain('revoked');
    expect((await post(second.token, game(id('next')))).status).toBe(202);
    // The producer's receipts are its own, whichever of its tokens asks.
    expect((await status(second.token, g.id as string)).status).toBe(200);
    const listed = ((await cli('list')).tokens as { service: string; tokenId: string }[]).filter(
      (t) => t.service === 'gomoku-i' && [first.tokenId, second.tokenId].includes(t.tokenId),
    );
    expect(listed).toEqual([
      expect.objectContaining({
        tokenId: first.tokenId,
        revokedAt: expect.any(String),
        lastUsedAt: expect.any(String),
      }),
      expect.objectContaining({ tokenId: second.tokenId, revokedAt: null }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(second.token);
  });

  it('Given the typed client with a service token, Then a game goes in and its status comes back typed, and a refusal is its problem document', async () => {
    const token = await issue('gomoku-client');
    const client = createRankingClient(`http://127.0.0.1:${world.port}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const g = game(id('typed'));
    const sent = await client.POST('/v1/games', { body: g as GameBody });
    expect(sent.response.status).toBe(202);
    expect(sent.data!.events).toEqual([{ index: 0, id: g.id, status: 'accepted' }]);
    await applied([g.id as string]);
    const { data } = await client.GET('/v1/events/{id}', {
      params: { path: { id: g.id as string } },
    });
    expect(data).toMatchObject({ id: g.id, status: 'applied', ladder: 'igame-gomoku' });
    const refused = await client.POST('/v1/games', {
      body: game(id('typed'), { moves: -1 }) as never,
    });
    expect(refused.response.status).toBe(400);
    expect(refused.error!.errors![0]).toMatchObject({ code: 'invalid-event', name: '/0' });
  });

  it('Given the limits, Then over 500 events or INGEST_BODY_LIMIT_BYTES is 413, a body not JSON is 400 or 415, and past INGEST_REQUESTS_PER_MINUTE a token gets 429 while another token goes on', async () => {
    const token = await issue('gomoku-j');
    const before = (await intakeMessages()).length;
    const many = await post(
      token,
      Array.from({ length: 501 }, (_, n) => game(`${producer}:many-${run}-${n}`)),
    );
    expect(many.status).toBe(413);
    expect(many.body.detail).toContain('at most 500 events');
    const huge = await post(token, [game(id('huge'), { note: 'x'.repeat(300_000) })]);
    expect(huge.status).toBe(413);
    expect(huge.body.status).toBe(413);
    const broken = await call('POST', '/v1/games', { token, raw: '{"id": ' });
    expect(broken.status).toBe(400);
    expect(broken.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const text = await call('POST', '/v1/games', { token, raw: 'id=1', contentType: 'text/plain' });
    expect(text.status).toBe(415);
    expect((await post(token, [])).status).toBe(400);
    expect((await intakeMessages()).length).toBe(before);

    // 12 a minute: five are spent above; seven more pass, the next is refused.
    const limited: number[] = [];
    for (let n = 0; n < 8; n++) limited.push((await post(token, game(id('rate')))).status);
    expect(limited).toEqual([202, 202, 202, 202, 202, 202, 202, 429]);
    const over = await post(token, game(id('rate')));
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(over.body.detail).toContain('this token');
    const other = await issue('gomoku-k');
    expect((await post(other, game(id('other')))).status).toBe(202);
  });
});
