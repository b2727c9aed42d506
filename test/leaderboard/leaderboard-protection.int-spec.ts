import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { PROBE_PATHS } from '@ranking/operations';
import { sample } from '@ranking/testing';
import { launchChromium } from './headless-chromium.js';
import { LeaderboardWorld } from './leaderboard-world.js';
import { OpenApiAnswers } from './openapi-answers.js';

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

// On Linux the whole of 127.0.0.0/8 is loopback: each source address is another client.
const FLOODER = '127.0.0.1';
const NEIGHBOUR = '127.0.0.2';
const UPLOADER = '127.0.0.3';
const SLOW = '127.0.0.4';
const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/**
 * The public API protecting itself, against the built service and the real PostgreSQL, Kafka
 * and Redis: one client flooding an endpoint is answered 429 while the others and the probes
 * are still answered; headers, CORS, body and time limits as configured.
 */
describe('leaderboard API protection', () => {
  const world = new LeaderboardWorld();
  const LIMIT = 30;

  const call = (
    from: string,
    path: string,
    options: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: world.port,
          path,
          localAddress: from,
          agent,
          method: options.method ?? 'GET',
          headers: options.headers,
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        },
      );
      req.on('error', reject);
      req.end(options.body);
    });

  beforeAll(async () => {
    await world.setUp();
    await world.startLeaderboard({
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      HTTP_BODY_LIMIT_BYTES: '1024',
      HTTP_REQUEST_TIMEOUT_MS: '1000',
    });
  }, 120_000);

  afterAll(async () => {
    agent.destroy();
    await world.tearDownAll();
  });

  it('given one client flooding an endpoint, then it is answered 429 with Retry-After past its limit, while the probes and another client are still answered', async () => {
    const flood = async (): Promise<Reply[]> => {
      const replies: Reply[] = [];
      // 300 requests, 10 at a time: ten times the limit, over a second or so.
      for (let round = 0; round < 30; round += 1)
        replies.push(
          ...(await Promise.all(Array.from({ length: 10 }, () => call(FLOODER, '/ladders')))),
        );
      return replies;
    };
    const meanwhile = async () => {
      const answers: { who: string; path: string; status: number }[] = [];
      for (let i = 0; i < 10; i += 1) {
        for (const path of [...Object.values(PROBE_PATHS), '/ping'])
          answers.push({ who: 'flooder', path, status: (await call(FLOODER, path)).status });
        answers.push({
          who: 'neighbour',
          path: '/ladders',
          status: (await call(NEIGHBOUR, '/ladders')).status,
        });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return answers;
    };
    const [replies, answers] = await Promise.all([flood(), meanwhile()]);

    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(replies.length - LIMIT);
    // Neighbour and probes: every one answered 200 while the flood was on.
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);

    const limited = replies.find((r) => r.status === 429)!;
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // A problem document (ADR 30), as the committed OpenAPI document says, with its request id.
    expect(limited.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(JSON.parse(limited.text)).toEqual({
      type: 'about:blank',
      title: 'Too Many Requests',
      status: 429,
      detail: expect.stringMatching(/^over 30 requests a minute from this client; retry in /),
      instance: '/ladders',
      requestId: limited.headers['x-request-id'],
    });
    expect(
      new OpenApiAnswers().problems('GET', '/ladders', {
        status: limited.status,
        contentType: String(limited.headers['content-type']),
        text: limited.text,
      }),
    ).toEqual([]);
    expect(limited.headers['x-ratelimit-limit']).toBe(String(LIMIT));
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    // A refused answer still carries the security headers.
    expect(limited.headers['x-content-type-options']).toBe('nosniff');

    const metrics = (await call(FLOODER, PROBE_PATHS.metrics)).text;
    expect(sample(metrics, 'leaderboard_rate_limited_total', { route: '/v1/ladders' })).toBe(
      replies.length - LIMIT,
    );
    // The neighbour's own allowance is untouched by the flood: 10 of 30 used.
    expect((await call(NEIGHBOUR, '/ladders')).headers['x-ratelimit-remaining']).toBe(
      String(LIMIT - 11),
    );
  });

  it('sets the security headers, and without CORS_ORIGINS answers no origin', async () => {
    const res = await call(NEIGHBOUR, '/ladders', { headers: { origin: 'https://example.org' } });
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'strict-transport-security': expect.stringMatching(/^max-age=\d+/),
      'content-security-policy': expect.stringContaining("script-src 'self'"),
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await call(NEIGHBOUR, '/ladders', {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('given a body over HTTP_BODY_LIMIT_BYTES, then it is answered 413 unread', async () => {
    const res = await call(UPLOADER, '/ladders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(4096) }),
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({
      type: 'about:blank',
      status: 413,
      instance: '/ladders',
    });
  });

  it('given a client sending its request slower than HTTP_REQUEST_TIMEOUT_MS, then it is answered 408 and cut off', async () => {
    const started = Date.now();
    const { text, ms } = await new Promise<{ text: string; ms: number }>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: world.port, localAddress: SLOW });
      let text = '';
      socket.setEncoding('utf8');
      // Half the headers, and then nothing: the slowloris pattern.
      socket.on('connect', () => socket.write('GET /ladders HTTP/1.1\r\nHost: 127.0.0.1\r\n'));
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('close', () => resolve({ text, ms: Date.now() - started }));
      socket.on('error', reject);
      setTimeout(() => {
        socket.destroy();
        reject(new Error(`still open after 10 s; received ${JSON.stringify(text)}`));
      }, 10_000).unref();
    });
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(5_000);
  });

  it('given CORS_ORIGINS, then exactly those origins may read the API; the page and /docs still load under the CSP', async () => {
    await world.leaderboard.stop();
    await world.startLeaderboard({ CORS_ORIGINS: 'https://example.org' });
    const allowed = await call(NEIGHBOUR, '/ladders', {
      headers: { origin: 'https://example.org' },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://example.org');
    const preflight = await call(NEIGHBOUR, '/ladders', {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://example.org');
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, HEAD');
    const other = await call(NEIGHBOUR, '/ladders', {
      headers: { origin: 'https://other.example' },
    });
    expect(other.status).toBe(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();

    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
      });
      await page.goto(`http://127.0.0.1:${world.port}/`);
      await page.waitForSelector('#ladder option', { state: 'attached' });
      await page.goto(`http://127.0.0.1:${world.port}/docs`);
      await page.waitForSelector('.swagger-ui .info .title');
      expect(await page.textContent('.swagger-ui .info .title')).toContain('ranking leaderboards');
      await page.waitForSelector('.opblock-summary-path');
      expect(refused).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
