import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadEnvironment } from './environment.js';

describe('environment', () => {
  it('defaults to the local services', () => {
    const env = loadEnvironment({});
    expect(env).toMatchObject({
      KAFKA_BROKERS: '127.0.0.1:9092',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/ranking',
      REDIS_URL: 'redis://127.0.0.1:6379',
      LOG_LEVEL: 'info',
      HTTP_PORT: 3000,
      RATING_HTTP_PORT: 3002,
      HOST: '127.0.0.1',
      READY_MAX_LAG_MESSAGES: 10_000,
      RATING_TRANSACTIONS_IN_FLIGHT: 3,
      REDIS_KEY_PREFIX: 'ranking:',
      RATE_LIMIT_PER_MINUTE: 600,
      CORS_ORIGINS: '',
      TRUST_PROXY: 'false',
      HTTP_BODY_LIMIT_BYTES: 16_384,
      HTTP_REQUEST_TIMEOUT_MS: 10_000,
      KAFKA_SESSION_TIMEOUT_MS: 30_000,
      POINT_IN_TIME_BUILDS: 1,
      POINT_IN_TIME_QUEUE: 8,
      API_STATEMENT_TIMEOUT_MS: 10_000,
      INGEST_RECEIPT_RETENTION_DAYS: 30,
      REVIEW_WORKERS: 1,
      REVIEW_QUEUE_LIMIT: 2,
      REVIEW_TIMEOUT_MS: 120_000,
      REVIEW_LADDER_GAMES: 500_000,
    });
    expect(
      loadEnvironment({ INGEST_RECEIPT_RETENTION_DAYS: '7' }).INGEST_RECEIPT_RETENTION_DAYS,
    ).toBe(7);
  });

  it('reads the review bounds', () => {
    expect(
      loadEnvironment({
        REVIEW_WORKERS: '2',
        REVIEW_QUEUE_LIMIT: '0',
        REVIEW_TIMEOUT_MS: '5000',
        REVIEW_LADDER_GAMES: '1000',
      }),
    ).toMatchObject({
      REVIEW_WORKERS: 2,
      REVIEW_QUEUE_LIMIT: 0,
      REVIEW_TIMEOUT_MS: 5000,
      REVIEW_LADDER_GAMES: 1000,
    });
  });

  it('reads the API cost bounds', () => {
    expect(
      loadEnvironment({
        POINT_IN_TIME_BUILDS: '2',
        POINT_IN_TIME_QUEUE: '0',
        API_STATEMENT_TIMEOUT_MS: '500',
      }),
    ).toMatchObject({
      POINT_IN_TIME_BUILDS: 2,
      POINT_IN_TIME_QUEUE: 0,
      API_STATEMENT_TIMEOUT_MS: 500,
    });
  });

  it('given a session timeout below what the broker allows, then one line names the variable', () => {
    expect(() => loadEnvironment({ KAFKA_SESSION_TIMEOUT_MS: '1000' })).toThrow(
      /KAFKA_SESSION_TIMEOUT_MS.*6000-300000/,
    );
  });

  it('reads the API protection settings', () => {
    expect(
      loadEnvironment({
        RATE_LIMIT_PER_MINUTE: '0',
        CORS_ORIGINS: 'https://example.org, http://127.0.0.1:8080',
        TRUST_PROXY: '10.0.0.0/8, loopback, fd00::/8',
        HTTP_BODY_LIMIT_BYTES: '1024',
        HTTP_REQUEST_TIMEOUT_MS: '2000',
      }),
    ).toMatchObject({
      RATE_LIMIT_PER_MINUTE: 0,
      CORS_ORIGINS: 'https://example.org,http://127.0.0.1:8080',
      TRUST_PROXY: '10.0.0.0/8,loopback,fd00::/8',
      HTTP_BODY_LIMIT_BYTES: 1024,
      HTTP_REQUEST_TIMEOUT_MS: 2000,
    });
    expect(loadEnvironment({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe('true');
  });

  it('reads and converts given values', () => {
    const env = loadEnvironment({
      KAFKA_BROKERS: 'k1:9092,k2:9093',
      HTTP_PORT: '8080',
      LOG_LEVEL: 'debug',
    });
    expect(env).toMatchObject({
      KAFKA_BROKERS: 'k1:9092,k2:9093',
      HTTP_PORT: 8080,
      LOG_LEVEL: 'debug',
    });
  });

  it('takes a single Redis or a cluster as REDIS_URL', () => {
    for (const url of [
      'rediss://user:pw@redis.example:6380/0',
      'redis+cluster://127.0.0.1:7000,127.0.0.1:7001,127.0.0.1:7002',
      'rediss+cluster://app:secret@redis-0:6379,redis-1:6379/',
    ])
      expect(loadEnvironment({ REDIS_URL: url }).REDIS_URL).toBe(url);
  });

  it.each([
    [
      'KAFKA_BROKERS',
      'localhost',
      'KAFKA_BROKERS="localhost": must be a comma-separated list of host:port',
    ],
    ['DATABASE_URL', 'mysql://x/y', 'DATABASE_URL="mysql://x/y": must be a postgres:// URL'],
    [
      'REDIS_URL',
      'http://x',
      'REDIS_URL="http://x": must be a redis:// URL, or redis+cluster://host:port,host:port for a cluster',
    ],
    [
      'REDIS_URL',
      'redis+cluster://a:1,b',
      'REDIS_URL="redis+cluster://a:1,b": must be a redis:// URL, or redis+cluster://host:port,host:port for a cluster',
    ],
    [
      'HTTP_PORT',
      '70000',
      'HTTP_PORT="70000": must be a port number (1-65535, or 0 for any free port)',
    ],
    [
      'RATING_HTTP_PORT',
      '-3',
      'RATING_HTTP_PORT="-3": must be a port number (1-65535, or 0 for any free port)',
    ],
    ['HOST', 'a b', 'HOST="a b": must be an IP address or a host name'],
    [
      'READY_MAX_LAG_MESSAGES',
      '1.5',
      'READY_MAX_LAG_MESSAGES="1.5": must be a whole number of messages (0-100000000)',
    ],
    [
      'HTTP_PORT',
      'abc',
      'HTTP_PORT="abc": must be a port number (1-65535, or 0 for any free port)',
    ],
    [
      'RATING_TRANSACTIONS_IN_FLIGHT',
      '0',
      'RATING_TRANSACTIONS_IN_FLIGHT="0": must be a whole number (1-12)',
    ],
    [
      'REDIS_KEY_PREFIX',
      'a b',
      'REDIS_KEY_PREFIX="a b": may hold letters, digits, ":", ".", "_" and "-" only',
    ],
    [
      'RATE_LIMIT_PER_MINUTE',
      'many',
      'RATE_LIMIT_PER_MINUTE="many": must be a whole number of requests (0-1000000; 0: no limit)',
    ],
    [
      'CORS_ORIGINS',
      '*',
      'CORS_ORIGINS="*": must be a comma-separated list of origins such as https://example.org',
    ],
    [
      'CORS_ORIGINS',
      'https://example.org/',
      'CORS_ORIGINS="https://example.org/": must be a comma-separated list of origins such as https://example.org',
    ],
    [
      'TRUST_PROXY',
      'yes',
      'TRUST_PROXY="yes": must be false, true or a comma-separated list of addresses, CIDRs or loopback',
    ],
    [
      'TRUST_PROXY',
      '2',
      'TRUST_PROXY="2": must be false, true or a comma-separated list of addresses, CIDRs or loopback',
    ],
    [
      'HTTP_BODY_LIMIT_BYTES',
      '0',
      'HTTP_BODY_LIMIT_BYTES="0": must be a whole number of bytes (1-10485760)',
    ],
    [
      'HTTP_REQUEST_TIMEOUT_MS',
      '50',
      'HTTP_REQUEST_TIMEOUT_MS="50": must be a whole number of milliseconds (100-600000)',
    ],
    [
      'POINT_IN_TIME_BUILDS',
      '0',
      'POINT_IN_TIME_BUILDS="0": must be a whole number of builds (1-64)',
    ],
    [
      'POINT_IN_TIME_QUEUE',
      '-1',
      'POINT_IN_TIME_QUEUE="-1": must be a whole number of builds (0-10000)',
    ],
    [
      'API_STATEMENT_TIMEOUT_MS',
      '10s',
      'API_STATEMENT_TIMEOUT_MS="10s": must be a whole number of milliseconds (100-600000)',
    ],
    ['REVIEW_WORKERS', '0', 'REVIEW_WORKERS="0": must be a whole number of threads (1-16)'],
    [
      'REVIEW_QUEUE_LIMIT',
      'many',
      'REVIEW_QUEUE_LIMIT="many": must be a whole number of tasks (0-1000)',
    ],
    [
      'REVIEW_TIMEOUT_MS',
      '100',
      'REVIEW_TIMEOUT_MS="100": must be a whole number of milliseconds (1000-3600000)',
    ],
    [
      'REVIEW_LADDER_GAMES',
      '10',
      'REVIEW_LADDER_GAMES="10": must be a whole number of games (1000-100000000)',
    ],
    [
      'INGEST_RECEIPT_RETENTION_DAYS',
      '0',
      'INGEST_RECEIPT_RETENTION_DAYS="0": must be a whole number of days (1-3650)',
    ],
    [
      'INGEST_RECEIPT_RETENTION_DAYS',
      '30d',
      'INGEST_RECEIPT_RETENTION_DAYS="30d": must be a whole number of days (1-3650)',
    ],
    [
      'LOG_LEVEL',
      'loud',
      'LOG_LEVEL="loud": must be one of fatal, error, warn, info, debug, trace',
    ],
  ])('stops on a bad %s with one line naming it', (name, value, message) => {
    expect(() => loadEnvironment({ [name]: value })).toThrow(new ConfigError(message));
  });

  describe('SASL towards Kafka', () => {
    const sasl = {
      KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
      KAFKA_SASL_USERNAME: 'rating-service',
      KAFKA_SASL_PASSWORD: 's3cret',
    };

    it('is off unless asked for', () => {
      const env = loadEnvironment({});
      expect(env.KAFKA_SASL_MECHANISM).toBeUndefined();
      expect(env.KAFKA_SASL_USERNAME).toBeUndefined();
      expect(env.KAFKA_SASL_PASSWORD).toBeUndefined();
    });

    it('reads a mechanism (any case) with its username and password', () => {
      expect(loadEnvironment(sasl)).toMatchObject({
        KAFKA_SASL_MECHANISM: 'scram-sha-512',
        KAFKA_SASL_USERNAME: 'rating-service',
        KAFKA_SASL_PASSWORD: 's3cret',
      });
    });

    it.each([
      [
        { ...sasl, KAFKA_SASL_MECHANISM: 'gssapi' },
        'KAFKA_SASL_MECHANISM="gssapi": must be one of plain, scram-sha-256, scram-sha-512, or unset',
      ],
      [
        { KAFKA_SASL_USERNAME: 'ops', KAFKA_SASL_PASSWORD: 'x' },
        'KAFKA_SASL_MECHANISM="": must be set (plain, scram-sha-256, scram-sha-512) when KAFKA_SASL_USERNAME or KAFKA_SASL_PASSWORD is',
      ],
      [
        { ...sasl, KAFKA_SASL_USERNAME: undefined },
        'KAFKA_SASL_USERNAME="": is required when KAFKA_SASL_MECHANISM is set',
      ],
      [
        { ...sasl, KAFKA_SASL_USERNAME: 'two words' },
        'KAFKA_SASL_USERNAME="two words": must be 1-255 characters without spaces',
      ],
      [
        { ...sasl, KAFKA_SASL_PASSWORD: '' },
        'KAFKA_SASL_PASSWORD="": is required when KAFKA_SASL_MECHANISM is set',
      ],
    ])('stops on an incomplete or bad SASL setting with one line naming it', (env, message) => {
      expect(() => loadEnvironment(env)).toThrow(new ConfigError(message));
    });

    it('never prints the password', () => {
      expect(() => loadEnvironment({ ...sasl, KAFKA_SASL_PASSWORD: 'line\nbreak' })).toThrow(
        new ConfigError('KAFKA_SASL_PASSWORD=(hidden): must be 1-1024 characters on one line'),
      );
    });
  });

  describe('TLS towards Kafka', () => {
    // Real PEM files, made by openssl: a self-signed certificate with its key, and another key.
    const dir = mkdtempSync(join(tmpdir(), 'ranking-tls-'));
    const file = (name: string) => join(dir, name);
    beforeAll(() => {
      for (const name of ['a', 'b'])
        execFileSync(
          'openssl',
          [
            ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'],
            ...['-keyout', file(`${name}-key.pem`), '-out', file(`${name}.pem`)],
            ...['-days', '1', '-subj', `/CN=${name}`],
          ],
          { stdio: 'pipe' },
        );
      writeFileSync(file('empty.pem'), '');
      writeFileSync(
        file('garbled.pem'),
        '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n',
      );
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('is off unless asked for', () => {
      const env = loadEnvironment({});
      expect(env.KAFKA_SSL).toBe(false);
      expect(env.KAFKA_SSL_CA_FILE).toBeUndefined();
      expect(env.KAFKA_SSL_CERT_FILE).toBeUndefined();
      expect(env.KAFKA_SSL_KEY_FILE).toBeUndefined();
    });

    it('reads KAFKA_SSL (any case), a CA file and a client certificate with its key', () => {
      expect(loadEnvironment({ KAFKA_SSL: ' TRUE ' }).KAFKA_SSL).toBe(true);
      expect(loadEnvironment({ KAFKA_SSL: 'false' }).KAFKA_SSL).toBe(false);
      expect(
        loadEnvironment({
          KAFKA_SSL: 'true',
          KAFKA_SSL_CA_FILE: file('b.pem'),
          KAFKA_SSL_CERT_FILE: file('a.pem'),
          KAFKA_SSL_KEY_FILE: file('a-key.pem'),
        }),
      ).toMatchObject({
        KAFKA_SSL: true,
        KAFKA_SSL_CA_FILE: file('b.pem'),
        KAFKA_SSL_CERT_FILE: file('a.pem'),
        KAFKA_SSL_KEY_FILE: file('a-key.pem'),
      });
    });

    const at = (name: string) => JSON.stringify(file(name));
    it.each([
      [{ KAFKA_SSL: 'yes' }, 'KAFKA_SSL="yes": must be true or false'],
      [
        { KAFKA_SSL_CA_FILE: file('a.pem') },
        `KAFKA_SSL_CA_FILE=${at('a.pem')}: is a TLS setting: set KAFKA_SSL=true with it`,
      ],
      [
        {
          KAFKA_SSL: 'false',
          KAFKA_SSL_CERT_FILE: file('a.pem'),
          KAFKA_SSL_KEY_FILE: file('a-key.pem'),
        },
        `KAFKA_SSL_CERT_FILE=${at('a.pem')}: is a TLS setting: set KAFKA_SSL=true with it`,
      ],
      [
        { KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: file('missing.pem') },
        `KAFKA_SSL_CA_FILE=${at('missing.pem')}: cannot be read (ENOENT)`,
      ],
      [
        { KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: dir },
        `KAFKA_SSL_CA_FILE=${JSON.stringify(dir)}: cannot be read (EISDIR)`,
      ],
      [
        { KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: file('empty.pem') },
        `KAFKA_SSL_CA_FILE=${at('empty.pem')}: holds no PEM certificate`,
      ],
      [
        { KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: file('a-key.pem') },
        `KAFKA_SSL_CA_FILE=${at('a-key.pem')}: holds no PEM certificate`,
      ],
      [
        { KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: file('garbled.pem') },
        `KAFKA_SSL_CA_FILE=${at('garbled.pem')}: holds a PEM certificate that does not parse`,
      ],
      [
        { KAFKA_SSL: 'true', KAFKA_SSL_CERT_FILE: file('a.pem') },
        'KAFKA_SSL_KEY_FILE="": is required when KAFKA_SSL_CERT_FILE is set',
      ],
      [
        { KAFKA_SSL: 'true', KAFKA_SSL_KEY_FILE: file('a-key.pem') },
        'KAFKA_SSL_CERT_FILE="": is required when KAFKA_SSL_KEY_FILE is set',
      ],
      [
        {
          KAFKA_SSL: 'true',
          KAFKA_SSL_CERT_FILE: file('missing.pem'),
          KAFKA_SSL_KEY_FILE: file('a-key.pem'),
        },
        `KAFKA_SSL_CERT_FILE=${at('missing.pem')}: cannot be read (ENOENT)`,
      ],
      [
        {
          KAFKA_SSL: 'true',
          KAFKA_SSL_CERT_FILE: file('a.pem'),
          KAFKA_SSL_KEY_FILE: file('a.pem'),
        },
        `KAFKA_SSL_KEY_FILE=${at('a.pem')}: holds no PEM private key`,
      ],
      [
        {
          KAFKA_SSL: 'true',
          KAFKA_SSL_CERT_FILE: file('a.pem'),
          KAFKA_SSL_KEY_FILE: file('b-key.pem'),
        },
        `KAFKA_SSL_KEY_FILE=${at('b-key.pem')}: is not the key of KAFKA_SSL_CERT_FILE's certificate`,
      ],
    ])('stops on a bad or missing TLS setting with one line naming it (%#)', (env, message) => {
      expect(() => loadEnvironment(env)).toThrow(new ConfigError(message));
    });

    describe('SASL/PLAIN', () => {
      const plain = {
        KAFKA_SASL_MECHANISM: 'PLAIN',
        KAFKA_SASL_USERNAME: 'rating-service',
        KAFKA_SASL_PASSWORD: 's3cret',
      };

      it('is refused without TLS, as it sends the password in clear text', () => {
        for (const tls of [{}, { KAFKA_SSL: 'false' }])
          expect(() => loadEnvironment({ ...plain, ...tls })).toThrow(
            new ConfigError(
              'KAFKA_SASL_MECHANISM="PLAIN": sends the password in clear text: only with KAFKA_SSL=true (a SASL_SSL listener)',
            ),
          );
      });

      it('is accepted over TLS; SCRAM is accepted without', () => {
        expect(loadEnvironment({ ...plain, KAFKA_SSL: 'true' }).KAFKA_SASL_MECHANISM).toBe('plain');
        expect(loadEnvironment({ ...plain, KAFKA_SASL_MECHANISM: 'scram-sha-512' }).KAFKA_SSL).toBe(
          false,
        );
      });
    });
  });
});
