import kafkajs from 'kafkajs';
import { PRINCIPALS, rankingAcls } from './acls.js';
import { kafkaConnection } from './kafka-client.js';

const { AclOperationTypes, AclResourceTypes, ResourcePatternTypes } = kafkajs;
const { READ, WRITE, DESCRIBE } = AclOperationTypes;
// kafkajs's enums are plain objects (no reverse mapping).
const nameOf = (values: object, value: number) =>
  Object.entries(values).find(([, v]) => v === value)?.[0];
const grants = (principal: string, prefix = '') =>
  rankingAcls(prefix)
    .filter(
      (a) => a.principal === `User:${principal}` && a.resourceType !== AclResourceTypes.CLUSTER,
    )
    .map(
      (a) =>
        `${nameOf(AclResourceTypes, a.resourceType)}:${a.resourceName}:${nameOf(AclOperationTypes, a.operation)}`,
    )
    .sort();

describe('rankingAcls', () => {
  it('lets game servers only write and describe ladder events', () => {
    expect(grants(PRINCIPALS.gameServer)).toEqual([
      'TOPIC:ranking.ladder-events:DESCRIBE',
      'TOPIC:ranking.ladder-events:WRITE',
    ]);
  });

  it('gives each service exactly its topics and its own group', () => {
    expect(grants(PRINCIPALS.rating)).toEqual([
      'GROUP:rating-service:DESCRIBE',
      'GROUP:rating-service:READ',
      'TOPIC:ranking.dead-letter:DESCRIBE',
      'TOPIC:ranking.dead-letter:WRITE',
      'TOPIC:ranking.ladder-events:DESCRIBE',
      'TOPIC:ranking.ladder-events:READ',
      'TOPIC:ranking.rating-changes:DESCRIBE',
      'TOPIC:ranking.rating-changes:WRITE',
    ]);
    expect(grants(PRINCIPALS.maintenance)).toEqual([
      'GROUP:maintenance-service:DESCRIBE',
      'GROUP:maintenance-service:READ',
      'TOPIC:ranking.dead-letter:DESCRIBE',
      'TOPIC:ranking.dead-letter:WRITE',
      'TOPIC:ranking.ladder-events:DESCRIBE',
      'TOPIC:ranking.ladder-events:READ',
      'TOPIC:ranking.ladder-events:WRITE',
    ]);
    expect(grants(PRINCIPALS.leaderboard)).toEqual([
      'GROUP:leaderboard-service:DESCRIBE',
      'GROUP:leaderboard-service:READ',
      'TOPIC:ranking.rating-changes:DESCRIBE',
      'TOPIC:ranking.rating-changes:READ',
    ]);
  });

  it('puts every topic and group under the prefix, literally but for ops', () => {
    for (const acl of rankingAcls('t-1.')) {
      if (acl.resourceType === AclResourceTypes.CLUSTER) continue;
      expect(acl.resourceName.startsWith('t-1.')).toBe(true);
      expect(acl.resourcePatternType).toBe(
        acl.principal === 'User:ops' ? ResourcePatternTypes.PREFIXED : ResourcePatternTypes.LITERAL,
      );
    }
    expect(grants(PRINCIPALS.ops, 't-1.')).toEqual(['TOPIC:t-1.ranking.:ALL']);
  });

  it('grants only reads, writes and describes to the services and game servers', () => {
    const others = rankingAcls().filter((a) => a.principal !== 'User:ops');
    expect(new Set(others.map((a) => a.operation))).toEqual(new Set([READ, WRITE, DESCRIBE]));
  });
});

describe('kafkaConnection', () => {
  it('is unauthenticated without a mechanism', () => {
    expect(kafkaConnection({ KAFKA_BROKERS: 'k:9092' })).toEqual({ brokers: 'k:9092' });
  });

  it('carries the SASL settings', () => {
    expect(
      kafkaConnection({
        KAFKA_BROKERS: 'k:9094',
        KAFKA_SASL_MECHANISM: 'scram-sha-512',
        KAFKA_SASL_USERNAME: 'ops',
        KAFKA_SASL_PASSWORD: 'pw',
      }),
    ).toEqual({
      brokers: 'k:9094',
      sasl: { mechanism: 'scram-sha-512', username: 'ops', password: 'pw' },
    });
  });
});
