import kafkajs from 'kafkajs';
import type { AclEntry } from 'kafkajs';
import { missingAcls, PRINCIPALS, producerPrincipal, rankingAcls, staleAcls } from './acls.js';
import { kafkaConnection } from './kafka-client.js';

const { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes } = kafkajs;
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

const GOMOKU = { name: 'gomoku-eu-1' };
const SIMULATOR = { name: 'simulator', backfill: true };
/** The grants of `principal` with the producers gomoku-eu-1 and (backfilling) simulator. */
const withProducers = (principal: string) =>
  rankingAcls('', [GOMOKU, SIMULATOR])
    .filter((a) => a.principal === `User:${principal}`)
    .map(
      (a) =>
        `${nameOf(AclResourceTypes, a.resourceType)}:${a.resourceName}${a.resourcePatternType === ResourcePatternTypes.PREFIXED ? '*' : ''}:${nameOf(AclOperationTypes, a.operation)}`,
    )
    .sort();

describe('rankingAcls', () => {
  it('lets a producer write its own intake topic and read its own rejections in groups of its own prefix, and nothing else', () => {
    expect(withProducers(producerPrincipal('gomoku-eu-1'))).toEqual([
      'GROUP:producer.gomoku-eu-1.*:DESCRIBE',
      'GROUP:producer.gomoku-eu-1.*:READ',
      'TOPIC:ranking.game-results.gomoku-eu-1:DESCRIBE',
      'TOPIC:ranking.game-results.gomoku-eu-1:WRITE',
      'TOPIC:ranking.game-results.rejected.gomoku-eu-1:DESCRIBE',
      'TOPIC:ranking.game-results.rejected.gomoku-eu-1:READ',
    ]);
  });

  it('gives a producer the ladder log only with backfill (the simulator, `setup --with-simulator`)', () => {
    expect(withProducers(producerPrincipal('simulator'))).toEqual(
      expect.arrayContaining(['TOPIC:ranking.ladder-events:WRITE']),
    );
    expect(
      rankingAcls('', [{ name: 'simulator' }]).filter(
        (a) => a.resourceName === 'ranking.ladder-events' && a.principal.includes('simulator'),
      ),
    ).toEqual([]);
  });

  it('names producers’ principals apart from the system’s, whatever their name', () => {
    expect(producerPrincipal('ops')).toBe('producer-ops');
    expect(producerPrincipal('intake-service')).not.toBe(PRINCIPALS.intake);
  });

  it('lets only the intake, the maintenance service, ops and a backfilling producer write the ladder log', () => {
    const writers = rankingAcls('', [GOMOKU, SIMULATOR])
      .filter((a) => a.resourceName === 'ranking.ladder-events' && a.operation === WRITE)
      .map((a) => a.principal)
      .sort();
    expect(writers).toEqual([
      'User:intake-service',
      'User:maintenance-service',
      'User:ops',
      'User:producer-simulator',
    ]);
  });

  it('gives each service exactly its topics and its own group; the intake each producer’s topic', () => {
    expect(withProducers(PRINCIPALS.intake)).toEqual([
      'GROUP:intake-service.*:DESCRIBE',
      'GROUP:intake-service.*:READ',
      'TOPIC:ranking.dead-letter:DESCRIBE',
      'TOPIC:ranking.dead-letter:WRITE',
      'TOPIC:ranking.game-results.gomoku-eu-1:DESCRIBE',
      'TOPIC:ranking.game-results.gomoku-eu-1:READ',
      'TOPIC:ranking.game-results.rejected.*:DESCRIBE',
      'TOPIC:ranking.game-results.rejected.*:WRITE',
      'TOPIC:ranking.game-results.simulator:DESCRIBE',
      'TOPIC:ranking.game-results.simulator:READ',
      'TOPIC:ranking.ladder-events:DESCRIBE',
      'TOPIC:ranking.ladder-events:WRITE',
    ]);
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
    expect(withProducers(PRINCIPALS.leaderboard)).toEqual([
      'GROUP:leaderboard-service:DESCRIBE',
      'GROUP:leaderboard-service:READ',
      // POST /v1/games (ADR 34, 39): onto the token's producer's topic, decided by the intake.
      'TOPIC:ranking.game-results.gomoku-eu-1:DESCRIBE',
      'TOPIC:ranking.game-results.gomoku-eu-1:WRITE',
      'TOPIC:ranking.game-results.simulator:DESCRIBE',
      'TOPIC:ranking.game-results.simulator:WRITE',
      'TOPIC:ranking.rating-changes:DESCRIBE',
      'TOPIC:ranking.rating-changes:READ',
    ]);
  });

  it('lets ops publish to the ladder log, read dead letters and redrive them through each producer’s topic (reading the rejections), but administer nothing', () => {
    expect(withProducers(PRINCIPALS.ops)).toEqual([
      'GROUP:ops*:DESCRIBE',
      'GROUP:ops*:READ',
      'TOPIC:ranking.dead-letter:DESCRIBE',
      'TOPIC:ranking.dead-letter:READ',
      'TOPIC:ranking.game-results.gomoku-eu-1:DESCRIBE',
      'TOPIC:ranking.game-results.gomoku-eu-1:WRITE',
      'TOPIC:ranking.game-results.rejected.*:DESCRIBE',
      'TOPIC:ranking.game-results.rejected.*:READ',
      'TOPIC:ranking.game-results.simulator:DESCRIBE',
      'TOPIC:ranking.game-results.simulator:WRITE',
      'TOPIC:ranking.ladder-events:DESCRIBE',
      'TOPIC:ranking.ladder-events:WRITE',
    ]);
    expect(grants(PRINCIPALS.admin)).toEqual([]);
  });

  it('puts every topic and group under the prefix, and grants no cluster rights', () => {
    for (const acl of rankingAcls('t-1.', [GOMOKU, SIMULATOR])) {
      expect(acl.resourceType).not.toBe(AclResourceTypes.CLUSTER);
      expect(acl.resourceName.startsWith('t-1.')).toBe(true);
    }
  });

  it('grants only reads, writes and describes', () => {
    expect(new Set(rankingAcls('', [GOMOKU]).map((a) => a.operation))).toEqual(
      new Set([READ, WRITE, DESCRIBE]),
    );
  });
});

describe('staleAcls', () => {
  const acl = (
    principal: string,
    resourceName: string,
    operation: number,
    resourceType: number = AclResourceTypes.TOPIC,
  ): AclEntry => ({
    principal: `User:${principal}`,
    host: '*',
    resourceType,
    resourceName,
    resourcePatternType: ResourcePatternTypes.LITERAL,
    operation,
    permissionType: AclPermissionTypes.ALLOW,
  });

  it("Given an older version's grants, When reconciled, Then game servers lose the ladder log and ops the cluster", () => {
    const existing = [
      ...rankingAcls(),
      acl('game-server', 'ranking.ladder-events', WRITE),
      acl('ops', 'kafka-cluster', AclOperationTypes.ALTER, AclResourceTypes.CLUSTER),
    ];
    expect(staleAcls(existing, rankingAcls())).toEqual([existing.at(-2), existing.at(-1)]);
  });

  it('Given the shared game-server and simulator of before, When reconciled with producers, Then their grants go', () => {
    const existing = [
      acl('game-server', 'ranking.game-results', WRITE),
      acl('game-server', 'ranking.game-results.rejected', READ),
      acl('simulator', 'ranking.ladder-events', WRITE),
      acl('intake-service', 'ranking.game-results', READ),
      acl('intake-service', 'intake-service', READ, AclResourceTypes.GROUP),
    ];
    expect(staleAcls(existing, rankingAcls('', [GOMOKU]))).toEqual(existing);
  });

  it('Given a producer removed, When reconciled, Then its grants and the services’ on its topic go; another producer’s stay', () => {
    const before = rankingAcls('', [GOMOKU, { name: 'xiangqi-1' }]);
    const after = rankingAcls('', [{ name: 'xiangqi-1' }]);
    const stale = staleAcls(before, after);
    expect(stale.length).toBeGreaterThan(0);
    expect(new Set(stale.map((a) => a.resourceName))).toEqual(
      new Set([
        'ranking.game-results.gomoku-eu-1',
        'ranking.game-results.rejected.gomoku-eu-1',
        'producer.gomoku-eu-1.',
      ]),
    );
    expect(staleAcls(before, before)).toEqual([]);
  });

  it('Given grants of other prefixes or other principals, When reconciled, Then they are left alone', () => {
    const existing = [
      acl('game-server', 't-9.ranking.ladder-events', WRITE),
      acl('someone-else', 'ranking.ladder-events', WRITE),
    ];
    expect(staleAcls(existing, rankingAcls())).toEqual([]);
    expect(staleAcls(existing, rankingAcls('t-9.'), 't-9.')).toEqual([existing[0]]);
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

describe('missingAcls', () => {
  it('Given the broker lists only some grants, When compared, Then the others are missing', () => {
    const desired = rankingAcls('t-1.');
    expect(missingAcls(desired.slice(2), desired)).toEqual(desired.slice(0, 2));
    expect(missingAcls([...desired, ...rankingAcls('t-2.')], desired)).toEqual([]);
  });
});
