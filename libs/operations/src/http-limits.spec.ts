import { loadEnvironment } from '@ranking/config';
import { httpLimits, trustProxy } from './http-limits.js';

describe('httpLimits', () => {
  it('gives Fastify the body and time limits, and Node a timely check of them', () => {
    const limits = httpLimits(
      loadEnvironment({ HTTP_BODY_LIMIT_BYTES: '2048', HTTP_REQUEST_TIMEOUT_MS: '500' }),
    );
    expect(limits).toMatchObject({
      bodyLimit: 2048,
      requestTimeout: 500,
      trustProxy: false,
      http: { headersTimeout: 500, connectionsCheckingInterval: 500 },
    });
    expect(httpLimits(loadEnvironment({})).http).toEqual({
      headersTimeout: 10_000,
      connectionsCheckingInterval: 1_000,
    });
  });

  it('reads TRUST_PROXY as Fastify takes it', () => {
    expect(trustProxy('false')).toBe(false);
    expect(trustProxy('true')).toBe(true);
    expect(trustProxy('10.0.0.0/8,127.0.0.1')).toBe('10.0.0.0/8,127.0.0.1');
  });
});
