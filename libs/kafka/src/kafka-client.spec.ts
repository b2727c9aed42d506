import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kafkaConnection } from './kafka-client.js';

describe('kafkaConnection', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranking-kafka-connection-'));
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const sasl = {
    KAFKA_SASL_MECHANISM: 'scram-sha-512',
    KAFKA_SASL_USERNAME: 'rating-service',
    KAFKA_SASL_PASSWORD: 's3cret',
  } as const;

  it('is plain TCP without KAFKA_SSL, SASL when a mechanism is set', () => {
    expect(kafkaConnection({ KAFKA_BROKERS: 'a:1' })).toEqual({ brokers: 'a:1' });
    expect(kafkaConnection({ KAFKA_BROKERS: 'a:1', KAFKA_SSL: false, ...sasl })).toEqual({
      brokers: 'a:1',
      sasl: { mechanism: 'scram-sha-512', username: 'rating-service', password: 's3cret' },
    });
  });

  it('with KAFKA_SSL, carries the PEM texts of the files it names (none: the public roots)', () => {
    expect(kafkaConnection({ KAFKA_BROKERS: 'a:1', KAFKA_SSL: true })).toEqual({
      brokers: 'a:1',
      tls: {},
    });
    expect(
      kafkaConnection({
        KAFKA_BROKERS: 'a:1',
        KAFKA_SSL: true,
        KAFKA_SSL_CA_FILE: file('ca.pem', 'CA'),
        KAFKA_SSL_CERT_FILE: file('client.pem', 'CERT'),
        KAFKA_SSL_KEY_FILE: file('client-key.pem', 'KEY'),
        ...sasl,
      }),
    ).toEqual({
      brokers: 'a:1',
      tls: { ca: 'CA', cert: 'CERT', key: 'KEY' },
      sasl: { mechanism: 'scram-sha-512', username: 'rating-service', password: 's3cret' },
    });
  });
});
