import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadEnvironment } from '@ranking/config';
import { httpLimits, ServiceMetrics } from '@ranking/operations';
import { redisClient, unlinkPrefixed } from '@ranking/redis';
import { randomBytes } from 'node:crypto';
import { protectApi } from './api-protection.js';
import { ProblemFilter } from './conventions/problem.filter.js';
import { Metrics } from './ops/metrics.js';

@Controller()
class StandInController {
  @Get('ladders')
  ladders(): object {
    return { ladders: [] };
  }

  @Get('health/live')
  live(): object {
    return { status: 'ok' };
  }
}

@Module({ controllers: [StandInController], providers: [ServiceMetrics, Metrics] })
class StandInModule {}

/**
 * The plugins on a small Nest Fastify app on a loopback port, the rate limit counted in the
 * real Redis under a prefix of its own: the wiring, not the load.
 */
describe('protectApi', () => {
  const redis = redisClient('redis://127.0.0.1:6379', 'api-protection-test');
  const prefix = `apitest-${randomBytes(5).toString('hex')}:`;
  let apps = 0;

  afterAll(async () => {
    await unlinkPrefixed(redis, prefix);
    await redis.quit();
  });

  const start = async (vars: Record<string, string>): Promise<NestFastifyApplication> => {
    // Each app its own keys: the apps of one test run share an address.
    const env = loadEnvironment({ ...vars, REDIS_KEY_PREFIX: `${prefix}${(apps += 1)}:` });
    const app = await NestFactory.create<NestFastifyApplication>(
      StandInModule,
      new FastifyAdapter(httpLimits(env)),
      { logger: false },
    );
    await protectApi(app, env, redis);
    app.useGlobalFilters(new ProblemFilter());
    await app.listen(0, '127.0.0.1');
    return app;
  };
  const call = async (
    app: NestFastifyApplication,
    path: string,
    init: RequestInit = {},
  ): Promise<{ status: number; headers: Headers; body: unknown }> => {
    const { port } = app.getHttpServer().address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}${path}`, init);
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  };

  it('given a client over its limit, then it is answered 429 as a problem document with Retry-After, counted, while the probes still answer', async () => {
    const app = await start({ RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await call(app, '/ladders')).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const limited = await call(app, '/ladders?limit=1');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(limited.body).toEqual({
        type: 'about:blank',
        title: 'Too Many Requests',
        status: 429,
        detail: expect.stringMatching(/^over 3 requests a minute from this client; retry in /),
        instance: '/ladders',
        requestId: expect.any(String),
      });
      // Unknown paths count too: a flood of 404s is limited like the rest.
      expect((await call(app, '/nowhere')).status).toBe(429);
      for (let i = 0; i < 5; i += 1) expect((await call(app, '/health/live')).status).toBe(200);
      const metrics = await app.get(ServiceMetrics).registry.metrics();
      expect(metrics).toMatch(/^leaderboard_rate_limited_total\{route="\/ladders"\} 3$/m);
      expect(metrics).toMatch(/^leaderboard_rate_limited_total\{route="unmatched"\} 1$/m);
    } finally {
      await app.close();
    }
  });

  it('given RATE_LIMIT_PER_MINUTE=0, then no client is limited', async () => {
    const app = await start({ RATE_LIMIT_PER_MINUTE: '0' });
    try {
      for (let i = 0; i < 20; i += 1) expect((await call(app, '/ladders')).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('sets the security headers, and CORS stays closed by default', async () => {
    const app = await start({});
    try {
      const { headers } = await call(app, '/ladders', {
        headers: { origin: 'https://example.org' },
      });
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expect(headers.get('content-security-policy')).toMatch(/default-src 'self'/);
      expect(headers.get('content-security-policy')).toMatch(/script-src 'self'(;|$)/);
      expect(headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await app.close();
    }
  });

  it('given CORS_ORIGINS, then exactly those origins are allowed, for GET', async () => {
    const app = await start({ CORS_ORIGINS: 'https://example.org, https://b.example' });
    try {
      const allowed = await call(app, '/ladders', { headers: { origin: 'https://example.org' } });
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://example.org');
      const preflight = await call(app, '/ladders', {
        method: 'OPTIONS',
        headers: { origin: 'https://b.example', 'access-control-request-method': 'GET' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://b.example');
      expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
      const other = await call(app, '/ladders', { headers: { origin: 'https://evil.example' } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await app.close();
    }
  });

  it('given a body over HTTP_BODY_LIMIT_BYTES, then it is answered 413', async () => {
    const app = await start({ HTTP_BODY_LIMIT_BYTES: '100' });
    try {
      const res = await call(app, '/ladders', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pad: 'x'.repeat(200) }),
      });
      expect(res.status).toBe(413);
    } finally {
      await app.close();
    }
  });
});
