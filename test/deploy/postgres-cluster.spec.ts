import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { type Manifest, readManifests, ROOT, validateManifest } from './deploy-checks.js';

// The database's manifests (deploy/k8s/postgres, ADR 38): a CloudNativePG Cluster, whose CRD
// has no model here, so its shape is checked field by field; and the connection rule: every
// DATABASE_URL names the Cluster's read-write Service, which follows the primary, the migrate's
// as the superuser (it creates the roles, ADR 40).
const DIR = join(ROOT, 'deploy/k8s/postgres');
const database = readManifests(DIR);
const services = readManifests(join(ROOT, 'deploy/k8s'));

interface Cluster {
  metadata: { name: string };
  spec: {
    instances: number;
    postgresql?: { synchronous?: { method?: string; number?: number; dataDurability?: string } };
    bootstrap?: { initdb?: { database?: string; owner?: string; secret?: { name?: string } } };
    enableSuperuserAccess?: boolean;
    superuserSecret?: { name?: string };
  };
}

/** What is wrong with the Cluster and with how the services reach it; none is a pass. */
function clusterProblems(db: readonly Manifest[], apps: readonly Manifest[]): string[] {
  const clusters = db.filter((m) => m.doc.kind === 'Cluster');
  if (clusters.length !== 1) return [`${clusters.length} Cluster manifests, not 1`];
  const [{ doc }] = clusters as [Manifest];
  const problems: string[] = [];
  if (doc.apiVersion !== 'postgresql.cnpg.io/v1')
    problems.push(`Cluster apiVersion ${String(doc.apiVersion)}, not postgresql.cnpg.io/v1`);
  const cluster = doc as unknown as Cluster;
  // A primary and two standbys: with one standby away, commits still wait for the other.
  if (!(cluster.spec.instances >= 3))
    problems.push(`Cluster: ${cluster.spec.instances} instances, not a primary and two standbys`);
  const sync = cluster.spec.postgresql?.synchronous;
  if (sync?.number !== 1 || sync.dataDurability !== 'required')
    problems.push('Cluster: commits do not always wait for a standby (synchronous, required)');
  const initdb = cluster.spec.bootstrap?.initdb;
  const owner = db.find(
    (m) =>
      m.doc.kind === 'Secret' &&
      (m.doc.metadata as { name?: string }).name === initdb?.secret?.name,
  );
  if (owner === undefined)
    problems.push(`Cluster: no Secret ${initdb?.secret?.name} for the owner`);
  const superuser = db.find(
    (m) =>
      m.doc.kind === 'Secret' &&
      (m.doc.metadata as { name?: string }).name === cluster.spec.superuserSecret?.name,
  );
  const superuserName = (superuser?.doc.stringData as Record<string, string> | undefined)?.username;
  if (cluster.spec.enableSuperuserAccess !== true || superuserName === undefined)
    problems.push('Cluster: no superuser (with its Secret) for the migrate Job (ADR 40)');
  const rw = `${cluster.metadata.name}-rw`;
  for (const secret of apps.filter((m) => m.doc.kind === 'Secret')) {
    const name = (secret.doc.metadata as { name: string }).name;
    const given = (secret.doc.stringData as Record<string, string> | undefined)?.DATABASE_URL;
    if (given === undefined) continue;
    const url = new URL(given);
    if (url.hostname !== rw)
      problems.push(`${name}: DATABASE_URL names ${url.hostname}, not ${rw}`);
    if (url.pathname !== `/${initdb?.database}`)
      problems.push(
        `${name}: DATABASE_URL names database ${url.pathname.slice(1)}, not ${initdb?.database}`,
      );
    if (name === 'ranking-secrets' && url.username !== superuserName)
      problems.push(
        `${name}: DATABASE_URL user ${url.username}, not the superuser ${superuserName}`,
      );
  }
  return problems;
}

describe('the database manifests (CloudNativePG)', () => {
  it('hold a Cluster of a primary and two standbys, commits waiting for one, and the owner Secret', () => {
    expect(database.map((m) => String(m.doc.kind)).sort()).toEqual(['Cluster', 'Secret', 'Secret']);
    for (const m of database.filter((d) => d.doc.kind !== 'Cluster'))
      expect(() => validateManifest(m.doc)).not.toThrow();
    expect(clusterProblems(database, services)).toEqual([]);
  });

  it('are all listed in their own kustomization, apart from the services', () => {
    const { resources } = parse(readFileSync(join(DIR, 'kustomization.yaml'), 'utf8')) as {
      resources: string[];
    };
    const files = [...new Set(database.map((m) => relative(DIR, join(ROOT, m.file))))];
    expect(resources.sort()).toEqual(files.sort());
  });

  it('a service URL that bypasses the read-write Service, too few standbys or relaxed durability is caught', () => {
    const single = structuredClone(database);
    const spec = (single.find((m) => m.doc.kind === 'Cluster')!.doc as unknown as Cluster).spec;
    spec.instances = 1;
    spec.postgresql!.synchronous!.dataDurability = 'preferred';
    const direct = structuredClone(services);
    const secret = direct.find(
      (m) => (m.doc.metadata as { name?: string }).name === 'ranking-secrets',
    )!;
    (secret.doc.stringData as Record<string, string>).DATABASE_URL =
      'postgres://ranking:x@ranking-db-1:5432/ranking';
    expect(clusterProblems(single, direct)).toEqual([
      'Cluster: 1 instances, not a primary and two standbys',
      'Cluster: commits do not always wait for a standby (synchronous, required)',
      'ranking-secrets: DATABASE_URL names ranking-db-1, not ranking-db-rw',
      'ranking-secrets: DATABASE_URL user ranking, not the superuser postgres',
    ]);
  });
});
