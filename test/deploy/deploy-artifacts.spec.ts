import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROBE_PATHS } from '@ranking/operations';
import { Deployment } from 'kubernetes-models/apps/v1';
import {
  composeProblems,
  dockerfileProblems,
  dockerfileStages,
  dockerignoreProblems,
  filesReadAtRunTime,
  imageEnvironment,
  imageHolds,
  kustomizationProblems,
  manifestProblems,
  packageNodeProblems,
  readCompose,
  readManifests,
  ROOT,
  runtimeNodeMajor,
  unknownVariables,
  validateManifest,
  type Manifest,
} from './deploy-checks.js';

// No container engine or cluster runs here: these check the files' shape and their agreement
// with the services' configuration (libs/config) and probe paths (libs/operations), not that
// an image builds or a pod starts.
const K8S = join(ROOT, 'deploy/k8s');
const COMPOSE = join(ROOT, 'deploy/docker-compose.yml');
const stages = dockerfileStages(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
const image = imageEnvironment(stages);
const manifests = readManifests(K8S);
const copy = <T>(value: T): T => structuredClone(value);
const AT =
  'deploy/k8s/leaderboard-service.yaml Deployment/leaderboard-service container leaderboard-service';

describe('the Dockerfile', () => {
  it('is multi-stage, installs production dependencies only and runs as a non-root user', () => {
    expect(dockerfileProblems(stages)).toEqual([]);
  });

  it('holds every file the built code reads at run time', () => {
    const read = filesReadAtRunTime();
    expect(read.map((r) => r.path)).toEqual(
      expect.arrayContaining([
        'apps/leaderboard-service/public',
        'dist/apps/cli/src/ranking.js',
        'dist/libs/contracts/src/events.schema.json',
      ]),
    );
    expect(read.filter(({ path }) => !imageHolds(path))).toEqual([]);
  });

  it('runs on the Node.js line deploy/node.sh pins, as package.json says', () => {
    expect(runtimeNodeMajor()).toBe(24);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as object;
    expect(packageNodeProblems(pkg, runtimeNodeMajor())).toEqual([]);
    expect(
      packageNodeProblems(
        { engines: { node: '>=20.19' }, devDependencies: { '@types/node': '^20.1.0' } },
        24,
      ),
    ).toEqual([
      'package.json: engines.node is ">=20.19", not >=24.x',
      'package.json: @types/node is "^20.1.0", not ^24.x',
    ]);
  });

  it('is refused when single-stage, installing dev dependencies, as root, on another Node', () => {
    const bad = dockerfileStages(
      'FROM node:20-bookworm-slim\nWORKDIR /app\nCOPY . .\nRUN npm ci && npm run build\n',
    );
    expect(dockerfileProblems(bad)).toEqual(
      expect.arrayContaining([
        'Dockerfile: FROM node:20-bookworm-slim, not node:24-bookworm-slim',
        'Dockerfile: not multi-stage',
        'Dockerfile: the final stage has no USER (runs as root)',
        'Dockerfile: the final stage installs dev dependencies: RUN npm ci && npm run build',
      ]),
    );
  });
});

describe('.dockerignore', () => {
  it('keeps node_modules, dist, .git, .kafka and .run out, and nothing the Dockerfile copies', () => {
    expect(dockerignoreProblems(readFileSync(join(ROOT, '.dockerignore'), 'utf8'), stages)).toEqual(
      [],
    );
  });

  it('is refused when it misses one or excludes a copied folder', () => {
    expect(
      dockerignoreProblems('node_modules\ndist\n.git\n.run\nlibs\n**/*.json\n', stages),
    ).toEqual([
      '.dockerignore: does not exclude .kafka',
      '.dockerignore: excludes package.json, which the Dockerfile copies',
      '.dockerignore: excludes package-lock.json, which the Dockerfile copies',
      '.dockerignore: excludes tsconfig.json, which the Dockerfile copies',
      '.dockerignore: excludes tsconfig.build.json, which the Dockerfile copies',
      '.dockerignore: excludes libs, which the Dockerfile copies',
      '.dockerignore: excludes package.json, which the Dockerfile copies',
      '.dockerignore: excludes package-lock.json, which the Dockerfile copies',
      '.dockerignore: excludes deploy/demo-tournaments.json, which the Dockerfile copies',
    ]);
  });
});

describe('the Kubernetes manifests', () => {
  it.each(manifests.map((m) => [`${m.file} ${String(m.doc.kind)}`, m] as const))(
    '%s validates against its schema',
    (_name, manifest) => {
      expect(() => validateManifest(manifest.doc)).not.toThrow();
    },
  );

  it('hold a ConfigMap, the Secrets, the migrate Job and a Deployment per service', () => {
    const kinds = manifests.map((m) => String(m.doc.kind)).sort();
    expect(kinds).toEqual([
      'ConfigMap',
      ...Array<string>(4).fill('Deployment'),
      'Job',
      ...Array<string>(13).fill('Secret'),
      'Service',
    ]);
    const secrets = manifests
      .filter((m) => m.doc.kind === 'Secret')
      .map((m) => (m.doc.metadata as { name: string }).name);
    expect(secrets.sort()).toEqual([
      'ranking-db-intake-service',
      'ranking-db-leaderboard-service',
      'ranking-db-maintenance-service',
      'ranking-db-ops',
      'ranking-db-rating-service',
      'ranking-kafka-admin',
      'ranking-kafka-intake-service',
      'ranking-kafka-leaderboard-service',
      'ranking-kafka-maintenance-service',
      'ranking-kafka-ops',
      'ranking-kafka-rating-service',
      'ranking-kafka-tls',
      'ranking-secrets',
    ]);
  });

  it('set known variables only, probe the probe paths on the ports the services listen on', () => {
    expect(manifestProblems(manifests, image)).toEqual([]);
  });

  it('are all listed in the kustomization', () => {
    expect(kustomizationProblems(K8S, manifests)).toEqual([]);
  });

  it('the schemas refuse a probe port of the wrong type, and an unknown kind', () => {
    const broken = copy(leaderboard().doc) as { spec: { template: { spec: Pod } } };
    broken.spec.template.spec.containers[0]!.livenessProbe!.httpGet.port = true;
    expect(() => new Deployment(broken as never).validate()).toThrow(/port/);
    expect(() => validateManifest({ apiVersion: 'apps/v1', kind: 'Deploymnet' })).toThrow(
      'unknown kind apps/v1 Deploymnet',
    );
  });

  it('an unknown variable, a value the configuration refuses or a wrong path is caught', () => {
    expect(unknownVariables(['HTTP_PORT', 'HTTP_PROT', 'DATABASE_URL'])).toEqual(['HTTP_PROT']);
    const bad = copy(leaderboard());
    const container = containerOf(bad);
    container.readinessProbe!.httpGet.path = '/ready';
    container.livenessProbe!.httpGet.path = PROBE_PATHS.ready;
    container.env!.push({ name: 'HTTP_PROT', value: '3000' }, { name: 'LOG_LEVEL', value: 'loud' });
    expect(manifestProblems([...others(), bad], image)).toEqual([
      `${AT}: HTTP_PROT is not a variable the services' configuration knows`,
      `${AT}: the configuration refuses it: LOG_LEVEL="loud": must be one of fatal, error, warn, info, debug, trace`,
      `${AT}: livenessProbe on /health/ready, not /health/live`,
      `${AT}: readinessProbe on /ready, not a probe path`,
    ]);
  });

  it('a port the service does not listen on is caught', () => {
    const moved = copy(leaderboard());
    containerOf(moved).ports![0]!.containerPort = 3005;
    expect(manifestProblems([...others(), moved], image)).toEqual([
      `${AT}: containerPort 3005, not 3000`,
      `${AT}: livenessProbe on port http (3005), not 3000`,
      `${AT}: readinessProbe on port http (3005), not 3000`,
      `${AT}: startupProbe on port http (3005), not 3000`,
    ]);
    const elsewhere = copy(leaderboard());
    containerOf(elsewhere).env!.push({ name: 'HTTP_PORT', value: '8080' });
    expect(manifestProblems([...others(), elsewhere], image)).toEqual(
      expect.arrayContaining([`${AT}: containerPort 3000, not 8080`]),
    );
  });

  it('every workload reaches Kafka by SASL over TLS, its password from a Secret, the CA from a mounted Secret', () => {
    expect(containerOf(leaderboard()).volumeMounts).toEqual(
      expect.arrayContaining([
        { name: 'kafka-tls', mountPath: '/etc/ranking/kafka-tls', readOnly: true },
      ]),
    );
    expect(manifestProblems(manifests, image)).toEqual([]);
  });

  it('a TLS file outside a mounted Secret, a password outside a Secret, or Kafka without TLS is caught', () => {
    const unmounted = copy(leaderboard());
    const container = containerOf(unmounted);
    container.volumeMounts = container.volumeMounts!.filter((v) => v.name !== 'kafka-tls');
    container.env!.push({ name: 'KAFKA_SASL_PASSWORD', value: 'in-the-manifest' });
    expect(manifestProblems([...others(), unmounted], image)).toEqual([
      `${AT}: KAFKA_SASL_PASSWORD is not from a Secret`,
      `${AT}: KAFKA_SSL_CA_FILE=/etc/ranking/kafka-tls/ca.pem is under no volume mount`,
    ]);

    const keyless = copy(leaderboard());
    containerOf(keyless).env!.push({
      name: 'KAFKA_SSL_CA_FILE',
      value: '/etc/ranking/kafka-tls/other-ca.pem',
    });
    expect(manifestProblems([...others(), keyless], image)).toEqual([
      `${AT}: KAFKA_SSL_CA_FILE=/etc/ranking/kafka-tls/other-ca.pem is no key of Secret ranking-kafka-tls`,
    ]);

    const clear = copy(leaderboard());
    containerOf(clear).env!.push({ name: 'KAFKA_SSL', value: 'false' });
    expect(manifestProblems([...others(), clear], image)).toEqual([
      `${AT}: KAFKA_SSL_CA_FILE set without KAFKA_SSL=true`,
      `${AT}: reaches Kafka without SASL over TLS (KAFKA_SSL, KAFKA_SASL_*)`,
    ]);

    const plain = copy(leaderboard());
    containerOf(plain).env!.push(
      { name: 'KAFKA_SSL', value: 'false' },
      { name: 'KAFKA_SASL_MECHANISM', value: 'plain' },
    );
    expect(manifestProblems([...others(), plain], image)).toEqual(
      expect.arrayContaining([
        `${AT}: the configuration refuses it: KAFKA_SASL_MECHANISM="plain": sends the password in clear text: only with KAFKA_SSL=true (a SASL_SSL listener)`,
      ]),
    );
  });

  it('every workload reaches Kafka as its own principal, only the setup Job as admin', () => {
    const secretOf = (kind: string, name: string) =>
      containerOf(workload(kind, name)).envFrom!.find((e) => e.secretRef)!.secretRef!.name;
    expect({
      migrate: secretOf('Job', 'ranking-migrate'),
      intake: secretOf('Deployment', 'intake-service'),
      rating: secretOf('Deployment', 'rating-service'),
      maintenance: secretOf('Deployment', 'maintenance-service'),
      leaderboard: secretOf('Deployment', 'leaderboard-service'),
    }).toEqual({
      migrate: 'ranking-kafka-admin',
      intake: 'ranking-kafka-intake-service',
      rating: 'ranking-kafka-rating-service',
      maintenance: 'ranking-kafka-maintenance-service',
      leaderboard: 'ranking-kafka-leaderboard-service',
    });
    expect(manifestProblems(manifests, image)).toEqual([]);
  });

  it("a workload on another role's principal, or on admin but the setup Job, is caught", () => {
    const swapped = (kind: string, name: string, secret: string) => {
      const changed = copy(workload(kind, name));
      containerOf(changed).envFrom!.find((e) => e.secretRef)!.secretRef!.name = secret;
      return manifestProblems(
        [...manifests.filter((m) => m !== workload(kind, name)), changed],
        image,
      );
    };
    expect(swapped('Job', 'ranking-migrate', 'ranking-kafka-ops')).toEqual([
      'deploy/k8s/migrate-job.yaml Job/ranking-migrate container migrate: Kafka principal ops, not admin',
    ]);
    expect(swapped('Deployment', 'intake-service', 'ranking-kafka-rating-service')).toEqual([
      'deploy/k8s/intake-service.yaml Deployment/intake-service container intake-service: Kafka principal rating-service, not intake-service',
    ]);
    expect(swapped('Deployment', 'leaderboard-service', 'ranking-kafka-admin')).toEqual([
      `${AT}: runs as admin, the super user only bin/ranking.js setup may be`,
    ]);
  });

  it("each service reaches PostgreSQL as its own role from its own Secret, the migrate as the superuser; another role's URL is caught", () => {
    const urlSecret = (kind: string, name: string) =>
      containerOf(workload(kind, name)).env!.find((e) => e.name === 'DATABASE_URL')!.valueFrom!
        .secretKeyRef!.name;
    expect({
      migrate: urlSecret('Job', 'ranking-migrate'),
      rating: urlSecret('Deployment', 'rating-service'),
      maintenance: urlSecret('Deployment', 'maintenance-service'),
      leaderboard: urlSecret('Deployment', 'leaderboard-service'),
    }).toEqual({
      migrate: 'ranking-secrets',
      rating: 'ranking-db-rating-service',
      maintenance: 'ranking-db-maintenance-service',
      leaderboard: 'ranking-db-leaderboard-service',
    });
    const onSecret = (secret: string) => {
      const changed = copy(leaderboard());
      containerOf(changed).env!.find(
        (e) => e.name === 'DATABASE_URL',
      )!.valueFrom!.secretKeyRef!.name = secret;
      return manifestProblems([...others(), changed], image);
    };
    expect(onSecret('ranking-secrets')).toEqual([
      `${AT}: reaches PostgreSQL as postgres, not ranking_leaderboard`,
    ]);
    expect(onSecret('ranking-db-rating-service')).toEqual([
      `${AT}: reaches PostgreSQL as ranking_rating, not ranking_leaderboard`,
    ]);
  });

  it('a container without its probes, or bound to 127.0.0.1, is caught', () => {
    const bare = copy(leaderboard());
    const container = containerOf(bare);
    delete container.livenessProbe;
    container.env!.push({ name: 'HOST', value: '127.0.0.1' });
    expect(manifestProblems([...others(), bare], image)).toEqual([
      `${AT}: HOST is 127.0.0.1, so the port is not reachable`,
      `${AT}: no livenessProbe`,
    ]);
  });
});

describe('deploy/docker-compose.yml', () => {
  const compose = readCompose(COMPOSE);

  it('sets known variables only; healthchecks ask /health/ready on the ports the services listen on', () => {
    expect(composeProblems(COMPOSE, compose, image)).toEqual([]);
  });

  it('every service of ours reaches Kafka by SASL over TLS, the CA on a volume, the password from deploy/.env', () => {
    for (const name of [
      'migrate',
      'intake-service',
      'rating-service',
      'maintenance-service',
      'leaderboard-service',
      'simulator',
    ]) {
      const env = compose.services[name]!.environment as Record<string, string>;
      expect({ name, ...env }).toMatchObject({
        name,
        KAFKA_SSL: 'true',
        KAFKA_SSL_CA_FILE: '/kafka-tls/ca.pem',
        KAFKA_SASL_PASSWORD: expect.stringMatching(/^\$\{KAFKA_[A-Z_]+_PASSWORD:\?/),
      });
    }
    const bad = copy(compose);
    const service = bad.services['rating-service']!;
    delete service.volumes;
    (service.environment as Record<string, string>).KAFKA_SASL_PASSWORD = 'written-here';
    const at = 'deploy/docker-compose.yml rating-service';
    expect(composeProblems(COMPOSE, bad, image)).toEqual([
      `${at}: KAFKA_SASL_PASSWORD is written here, not read from deploy/.env (\${VAR:?})`,
      `${at}: KAFKA_SSL_CA_FILE=/kafka-tls/ca.pem is on no volume of the service`,
    ]);
  });

  it("every service of ours is its own principal, its password one the broker's JAAS file has", () => {
    const users = Object.fromEntries(
      Object.entries(compose.services)
        .filter(([, service]) => service.build !== undefined)
        .map(([name, service]) => [
          name,
          (service.environment as Record<string, string>).KAFKA_SASL_USERNAME,
        ]),
    );
    expect(users).toEqual({
      migrate: 'admin',
      'intake-service': 'intake-service',
      'rating-service': 'rating-service',
      'maintenance-service': 'maintenance-service',
      'leaderboard-service': 'leaderboard-service',
      simulator: 'producer-simulator',
    });
    expect(composeProblems(COMPOSE, compose, image)).toEqual([]);
  });

  it('a wrong principal, admin but for the migrate, or a user the broker lacks is caught', () => {
    const bad = copy(compose);
    const env = (name: string) => bad.services[name]!.environment as Record<string, string>;
    Object.assign(env('rating-service'), {
      KAFKA_SASL_USERNAME: 'admin',
      KAFKA_SASL_PASSWORD: '${KAFKA_ADMIN_PASSWORD:?set it in deploy/.env}',
    });
    Object.assign(env('simulator'), {
      KAFKA_SASL_USERNAME: 'game-server',
      KAFKA_SASL_PASSWORD: '${KAFKA_GAME_SERVER_PASSWORD:?set it in deploy/.env}',
    });
    env('intake-service').KAFKA_SASL_PASSWORD = '${KAFKA_RATING_PASSWORD:?set it in deploy/.env}';
    delete env('kafka-init').KAFKA_MAINTENANCE_PASSWORD;
    const at = 'deploy/docker-compose.yml';
    expect(composeProblems(COMPOSE, bad, image)).toEqual([
      `${at} intake-service: KAFKA_SASL_PASSWORD reads KAFKA_RATING_PASSWORD, not KAFKA_INTAKE_PASSWORD (intake-service's)`,
      `${at} rating-service: runs as admin, the super user only bin/ranking.js setup may be`,
      `${at} maintenance-service: kafka-init is not given KAFKA_MAINTENANCE_PASSWORD`,
      `${at} simulator: game-server is no user in the broker's JAAS file (deploy/kafka/compose-init.sh)`,
      `${at} simulator: kafka-init is not given KAFKA_GAME_SERVER_PASSWORD`,
      `${at} simulator: Kafka principal game-server, not producer-simulator`,
    ]);
  });

  it('a service on the superuser or another role, a login role running setup, or a password written here is caught', () => {
    const bad = copy(compose);
    const env = (name: string) => bad.services[name]!.environment as Record<string, string>;
    env('rating-service').DATABASE_URL = 'postgres://postgres@postgres:5432/ranking';
    env('leaderboard-service').DATABASE_URL =
      'postgres://ranking_ops:${DATABASE_OPS_PASSWORD:?set it in deploy/.env}@postgres:5432/ranking';
    env('migrate').DATABASE_URL =
      'postgres://ranking_ops:${DATABASE_OPS_PASSWORD:?set it in deploy/.env}@postgres:5432/ranking';
    env('migrate').DATABASE_OPS_PASSWORD = 'written-in-the-compose-file';
    const at = 'deploy/docker-compose.yml';
    expect(composeProblems(COMPOSE, bad, image)).toEqual([
      `${at} migrate: DATABASE_OPS_PASSWORD is written here, not read from deploy/.env (\${VAR:?})`,
      `${at} migrate: runs ranking setup as ranking_ops, a login role, not a superuser`,
      `${at} rating-service: reaches PostgreSQL as postgres, not ranking_rating`,
      `${at} leaderboard-service: reaches PostgreSQL as ranking_ops, not ranking_leaderboard`,
    ]);
  });

  it('a wrong port, path or variable is caught', () => {
    const bad = copy(compose);
    const service = bad.services['leaderboard-service']!;
    (service.environment as Record<string, string>).REDIS_HOST = 'redis';
    service.healthcheck = {
      test: ['CMD', 'node', '-e', "fetch('http://127.0.0.1:3001/health').then(r=>process.exit("],
    };
    const at = 'deploy/docker-compose.yml leaderboard-service';
    expect(composeProblems(COMPOSE, bad, image)).toEqual([
      `${at}: REDIS_HOST is not a variable the services' configuration knows`,
      `${at}: healthcheck on port 3001, not 3000`,
      `${at}: healthcheck on /health, not /health/ready`,
      expect.stringMatching(`${at}: the healthcheck's script does not parse`),
    ]);
  });
});

interface Pod {
  containers: {
    ports?: { containerPort: number }[];
    envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
    env?: {
      name: string;
      value?: string;
      valueFrom?: { secretKeyRef?: { name: string; key: string } };
    }[];
    volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
    livenessProbe?: { httpGet: { port: unknown; path: string } };
    readinessProbe?: { httpGet: { port: unknown; path: string } };
  }[];
}

function workload(kind: string, name: string): Manifest {
  return manifests.find(
    (m) => m.doc.kind === kind && (m.doc.metadata as { name: string }).name === name,
  )!;
}

function leaderboard(): Manifest {
  return workload('Deployment', 'leaderboard-service');
}

function containerOf(manifest: Manifest): Pod['containers'][number] {
  return (manifest.doc as { spec: { template: { spec: Pod } } }).spec.template.spec.containers[0]!;
}

function others(): Manifest[] {
  return manifests.filter((m) => m !== leaderboard());
}
