import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { Script } from 'node:vm';
import { Environment, loadEnvironment, OPTIONAL_VARIABLES } from '@ranking/config';
import { PRINCIPALS, type Principal, producerPrincipal } from '@ranking/kafka';
import { LOGIN_ROLES, type LoginRole } from '@ranking/persistence';
import { PROBE_PATHS, SERVICE_PORTS, type ServiceName } from '@ranking/operations';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1';
import { Job, type IJob } from 'kubernetes-models/batch/v1';
import {
  ConfigMap,
  Secret,
  Service,
  type IConfigMap,
  type IContainer,
  type IPodTemplateSpec,
  type IProbe,
  type ISecret,
  type IService,
} from 'kubernetes-models/v1';
import { parse, parseAllDocuments } from 'yaml';

/**
 * Checks of the deployment artifacts (Dockerfile, .dockerignore, the compose file and the
 * Kubernetes manifests) against the services' configuration. Each check returns the problems it
 * found, one line each; none is a pass.
 */

export const ROOT = resolve(import.meta.dirname, '../..');

/** Every variable loadEnvironment() reads. */
export const KNOWN_VARIABLES: ReadonlySet<string> = new Set([
  ...Object.keys(new Environment()),
  ...OPTIONAL_VARIABLES,
]);

/**
 * The variables naming files a deployment provides (a mounted Secret, a volume): not in the
 * image, and not here to read, so checked where they come from.
 */
export const MOUNTED_FILE_VARIABLES = [
  'KAFKA_SSL_CA_FILE',
  'KAFKA_SSL_CERT_FILE',
  'KAFKA_SSL_KEY_FILE',
] as const;

/** What is wrong with where a container gets the file at `path`, or undefined when it has it. */
export type FileSource = (path: string) => string | undefined;

/** Variables that hold a secret: a manifest takes them from a Secret, compose from deploy/.env. */
export const SECRET_VARIABLES: ReadonlySet<string> = new Set([
  'KAFKA_SASL_PASSWORD',
  ...Object.values(LOGIN_ROLES).map((r) => r.passwordVariable),
]);

const PROBES: ReadonlySet<string> = new Set(Object.values(PROBE_PATHS));
const SERVICES = Object.keys(SERVICE_PORTS) as ServiceName[];
/** The image's working directory, where relative paths in commands start. */
const WORKDIR = '/app';

export const unknownVariables = (names: Iterable<string>): string[] =>
  [...names].filter((name) => !KNOWN_VARIABLES.has(name));

/** What a container of our image runs, from its arguments to `node`. */
type Role = { kind: 'service'; service: ServiceName } | { kind: 'cli'; command: string };

/** Each service's Kafka principal (libs/kafka/src/acls.ts): a new service needs its own. */
const SERVICE_PRINCIPALS: Readonly<Record<ServiceName, Principal>> = {
  'intake-service': PRINCIPALS.intake,
  'rating-service': PRINCIPALS.rating,
  'maintenance-service': PRINCIPALS.maintenance,
  'leaderboard-service': PRINCIPALS.leaderboard,
};

/**
 * The Kafka principal a workload of this role runs as, the one whose ACLs fit its job: setup the
 * super user (the only principal that creates topics and writes ACLs), the simulator the
 * producer it is (ADR 39), any other command the operators'.
 */
export function principalOf(role: Role): string {
  if (role.kind === 'service') return SERVICE_PRINCIPALS[role.service];
  if (role.command === 'setup') return PRINCIPALS.admin;
  // `ranking simulate` publishes as the producer `simulator` (apps/cli/src/simulator-producer.ts).
  if (role.command === 'simulate') return producerPrincipal('simulator');
  return PRINCIPALS.ops;
}

/**
 * Each service's PostgreSQL login role (libs/persistence/src/database-roles.ts; ADR 40): null for
 * one without a database, which then gets no DATABASE_URL (no credential it does not use).
 */
const SERVICE_DATABASE_ROLES: Readonly<Record<ServiceName, LoginRole | null>> = {
  'intake-service': 'intake',
  'rating-service': 'rating',
  'maintenance-service': 'maintenance',
  'leaderboard-service': 'leaderboard',
};

/**
 * Whether the workload reaches PostgreSQL as its role: a service as its own, setup as a
 * superuser (no login role may create roles), any other command that uses the database as ops.
 */
function databaseRoleProblems(where: string, role: Role, url: string | undefined): string[] {
  const user = url === undefined ? undefined : /^postgres(?:ql)?:\/\/([^:@/]+)/.exec(url)?.[1];
  const loginRoles = new Set(Object.values(LOGIN_ROLES).map((r) => r.name));
  if (role.kind === 'cli') {
    if (role.command === 'setup')
      return user !== undefined && loginRoles.has(user)
        ? [`${where}: runs ranking setup as ${user}, a login role, not a superuser`]
        : [];
    if (url === undefined || user === LOGIN_ROLES.ops.name) return [];
    return [`${where}: DATABASE_URL as ${user ?? '(no user)'}, not ${LOGIN_ROLES.ops.name}`];
  }
  const expected = SERVICE_DATABASE_ROLES[role.service];
  if (expected === null)
    return url === undefined
      ? []
      : [`${where}: a DATABASE_URL, but ${role.service} uses no database`];
  const name = LOGIN_ROLES[expected].name;
  if (user === name) return [];
  return [
    `${where}: reaches PostgreSQL as ${user ?? 'the default superuser (DATABASE_URL unset)'}, not ${name}`,
  ];
}

/** Whether the workload reaches Kafka as its role's principal, and only setup as the admin. */
function principalProblems(where: string, role: Role, username: string | undefined): string[] {
  const expected = principalOf(role);
  if (username === expected) return [];
  if (username === PRINCIPALS.admin)
    return [`${where}: runs as admin, the super user only bin/ranking.js setup may be`];
  return [`${where}: Kafka principal ${username ?? '(unset)'}, not ${expected}`];
}

export function roleOf(args: readonly string[]): Role | string {
  const script = args.find((a) => !a.startsWith('-'));
  if (script !== undefined && !imageHolds(script))
    return `runs ${script}, which the image does not hold`;
  const service = /^dist\/apps\/([a-z-]+)\/src\/main\.js$/.exec(script ?? '')?.[1];
  if (service !== undefined) {
    if (!(SERVICES as string[]).includes(service)) return `runs ${script}, not a known service`;
    if (!existsSync(join(ROOT, 'apps', service, 'src/main.ts')))
      return `runs ${script}, but apps/${service}/src/main.ts does not exist`;
    return { kind: 'service', service: service as ServiceName };
  }
  if (script === 'bin/ranking.js') {
    const command = args[args.indexOf(script) + 1] ?? '';
    if (!existsSync(join(ROOT, 'apps/cli/src/commands', `${command}.command.ts`)))
      return `runs bin/ranking.js ${command}, not a CLI command`;
    return { kind: 'cli', command };
  }
  return `runs ${JSON.stringify(args)}: neither a service's main.js nor bin/ranking.js`;
}

/**
 * Problems with an environment a container of our image gets (`set`) over the image's own,
 * `source` saying whether it has the files MOUNTED_FILE_VARIABLES name.
 */
export function environmentProblems(
  where: string,
  set: Readonly<Record<string, string>>,
  role: Role | string,
  image: Readonly<Record<string, string>>,
  source: FileSource,
): { problems: string[]; port?: number } {
  const problems = unknownVariables(Object.keys(set)).map(
    (name) => `${where}: ${name} is not a variable the services' configuration knows`,
  );
  const effective = { ...image, ...set };
  const files = MOUNTED_FILE_VARIABLES.filter((name) => effective[name] !== undefined);
  for (const name of files) {
    const problem = source(effective[name]!);
    if (problem !== undefined) problems.push(`${where}: ${name}=${effective[name]} ${problem}`);
  }
  const withoutFiles = Object.fromEntries(
    Object.entries(effective).filter(([name]) => !(files as string[]).includes(name)),
  );
  try {
    const env = loadEnvironment(withoutFiles);
    // What the configuration would say of the files were they here.
    if (files.length > 0 && !env.KAFKA_SSL)
      problems.push(`${where}: ${files.join(', ')} set without KAFKA_SSL=true`);
    // Every workload is a principal of its own, its password and data encrypted on the way.
    if (!env.KAFKA_SSL || env.KAFKA_SASL_MECHANISM === undefined)
      problems.push(`${where}: reaches Kafka without SASL over TLS (KAFKA_SSL, KAFKA_SASL_*)`);
  } catch (error) {
    problems.push(`${where}: the configuration refuses it: ${(error as Error).message}`);
  }
  for (const name of ['RANKING_LADDERS_FILE', 'RANKING_TOURNAMENTS_FILE']) {
    const file = effective[name];
    if (file !== undefined && !imageHolds(file))
      problems.push(`${where}: ${name}=${file} is not a file the image holds`);
  }
  if (typeof role === 'string') return { problems: [...problems, `${where}: ${role}`] };
  problems.push(...principalProblems(where, role, effective.KAFKA_SASL_USERNAME));
  problems.push(...databaseRoleProblems(where, role, effective.DATABASE_URL));
  if (role.kind === 'cli') return { problems };
  if (effective.HOST !== '0.0.0.0' && effective.HOST !== '::')
    problems.push(`${where}: HOST is ${effective.HOST ?? 'unset'}, so the port is not reachable`);
  const { variable, port } = SERVICE_PORTS[role.service];
  return { problems, port: effective[variable] === undefined ? port : Number(effective[variable]) };
}

// ---------------------------------------------------------------------------------------------
// Dockerfile and .dockerignore

export interface Stage {
  from: string;
  name?: string;
  /** Instructions after FROM, continuation lines joined: [keyword, rest]. */
  instructions: [string, string][];
}

export function dockerfileStages(text: string): Stage[] {
  const lines = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword = '', rest = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (keyword.toUpperCase() === 'FROM') {
      const [from = '', as, name] = rest.split(/\s+/);
      stages.push({
        from,
        ...(as?.toUpperCase() === 'AS' && name ? { name } : {}),
        instructions: [],
      });
    } else {
      stages.at(-1)?.instructions.push([keyword.toUpperCase(), rest]);
    }
  }
  return stages;
}

/** The image's ENV, as the final stage sets it (`ENV A=1 B=2`). */
export function imageEnvironment(stages: readonly Stage[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [keyword, rest] of stages.at(-1)?.instructions ?? []) {
    if (keyword !== 'ENV') continue;
    for (const [, key = '', value = ''] of rest.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=(\S*)/g))
      env[key] = value;
  }
  return env;
}

/** A stage's COPY instructions, with the paths (from the workdir) each puts in the image. */
function copies(stage: Stage | undefined): { from?: string; sources: string[]; held: string[] }[] {
  return (stage?.instructions ?? [])
    .filter(([keyword]) => keyword === 'COPY')
    .map(([, rest]) => {
      const words = rest.split(/\s+/);
      const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
      const paths = words.filter((w) => !w.startsWith('--'));
      const sources = paths.slice(0, -1);
      const target = paths.at(-1) ?? '';
      const dest = posix.normalize(relativeTo(target));
      const into = target.endsWith('/') || dest === '.' || sources.length > 1;
      const held = into ? sources.map((s) => posix.join(dest, posix.basename(s))) : [dest];
      return { ...(from ? { from } : {}), sources, held };
    });
}

const relativeTo = (path: string) =>
  path === WORKDIR ? '.' : path.startsWith(`${WORKDIR}/`) ? path.slice(WORKDIR.length + 1) : path;

let stagesOfRepository: Stage[] | undefined;
const repositoryStages = () =>
  (stagesOfRepository ??= dockerfileStages(readFileSync(join(ROOT, 'Dockerfile'), 'utf8')));

/**
 * Whether a stage holds a path (absolute, or from the workdir): a file of the repository it
 * copies, or, copied from a stage that ran `npm run build`, what tsc emits into dist/ (a .js per
 * .ts, and the JSON the sources import) from the sources that stage copied.
 */
export function imageHolds(
  path: string,
  stages: readonly Stage[] = repositoryStages(),
  stage: Stage | undefined = stages.at(-1),
): boolean {
  const inside = posix.normalize(relativeTo(path)).replace(/\/$/, '');
  return copies(stage).some(({ from, sources, held }) =>
    held.some((h, i) => {
      if (inside !== h && !inside.startsWith(`${h}/`)) return false;
      const source = posix.join(relativeTo(sources[i] ?? sources[0] ?? ''), inside.slice(h.length));
      if (from === undefined)
        return existsSync(join(ROOT, source)) && !ignored(repositoryIgnore(), source);
      const built = stages.find((s) => s.name === from);
      if (built === undefined) return false;
      const builds = built.instructions.some(
        ([k, rest]) => k === 'RUN' && /\bnpm run build\b/.test(rest),
      );
      if (!builds || (source !== 'dist' && !source.startsWith('dist/')))
        return imageHolds(source, stages, built);
      if (source === 'dist') return true;
      const emitted = source.slice('dist/'.length);
      const origin = emitted.endsWith('.js') ? emitted.replace(/\.js$/, '.ts') : emitted;
      return (
        !/\.(int-)?spec\.ts$/.test(origin) &&
        existsSync(join(ROOT, origin)) &&
        imageHolds(origin, stages, built)
      );
    }),
  );
}

/**
 * The files the built code reads by `new URL('...', import.meta.url)`, as paths from the
 * repository root once built: sources run from dist/, bin/ from where it is.
 */
export function filesReadAtRunTime(): { reader: string; path: string }[] {
  const sources = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = posix.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(path);
      return /\.(ts|js)$/.test(entry.name) && !/\.(int-)?spec\.ts$/.test(entry.name) ? [path] : [];
    });
  const found: { reader: string; path: string }[] = [];
  for (const reader of [...sources('apps'), ...sources('libs'), ...sources('bin')]) {
    const runsAt = reader.endsWith('.ts')
      ? posix.join('dist', reader.replace(/\.ts$/, '.js'))
      : reader;
    const text = readFileSync(join(ROOT, reader), 'utf8');
    const targets = [
      ...text.matchAll(/new URL\(\s*'([^']+)',\s*import\.meta\.url\s*\)/g),
      ...text.matchAll(/from '(\.{1,2}\/[^']+\.json)'/g),
    ].map(([, target = '']) => target);
    for (const target of targets)
      found.push({
        reader,
        path: posix.normalize(posix.join(posix.dirname(runsAt), target)).replace(/\/$/, ''),
      });
  }
  return found;
}

/** The Node.js major line everything runs on: NODE_RUNTIME in deploy/node.sh (ADR 29). */
export function runtimeNodeMajor(nodeSh = readFileSync(join(ROOT, 'deploy/node.sh'), 'utf8')) {
  const major = /^NODE_RUNTIME=(\d+)\.\d+\.\d+$/m.exec(nodeSh)?.[1];
  if (major === undefined) throw new Error('deploy/node.sh pins no NODE_RUNTIME=MAJOR.MINOR.PATCH');
  return Number(major);
}

/** package.json's engines and @types/node against the runtime's major line. */
export function packageNodeProblems(
  pkg: { engines?: { node?: string }; devDependencies?: Record<string, string> },
  major: number,
): string[] {
  const problems: string[] = [];
  const engines = pkg.engines?.node ?? '';
  if (!new RegExp(`^>=${major}(\\.\\d+)*$`).test(engines))
    problems.push(`package.json: engines.node is "${engines}", not >=${major}.x`);
  const types = pkg.devDependencies?.['@types/node'] ?? '';
  if (!new RegExp(`^\\^${major}\\.`).test(types))
    problems.push(`package.json: @types/node is "${types}", not ^${major}.x`);
  return problems;
}

export function dockerfileProblems(
  stages: readonly Stage[],
  nodeMajor = runtimeNodeMajor(),
): string[] {
  const problems: string[] = [];
  if (stages.length < 2) problems.push('Dockerfile: not multi-stage');
  for (const stage of stages)
    if (stage.from !== `node:${nodeMajor}-bookworm-slim`)
      problems.push(`Dockerfile: FROM ${stage.from}, not node:${nodeMajor}-bookworm-slim`);
  const final = stages.at(-1)?.instructions ?? [];
  const user = final.filter(([k]) => k === 'USER').at(-1)?.[1];
  if (user === undefined) problems.push('Dockerfile: the final stage has no USER (runs as root)');
  else if (/^(root|0)(:|$)/.test(user))
    problems.push(`Dockerfile: the final stage runs as ${user}`);
  const installs = final.filter(([k, rest]) => k === 'RUN' && /\bnpm (ci|install|i)\b/.test(rest));
  if (installs.length === 0) problems.push('Dockerfile: the final stage installs no dependencies');
  for (const [, rest] of installs)
    if (!/--omit=dev\b/.test(rest))
      problems.push(`Dockerfile: the final stage installs dev dependencies: RUN ${rest}`);
  if (final.some(([k, rest]) => k === 'RUN' && /\bnpm run build\b/.test(rest)))
    problems.push('Dockerfile: the final stage builds (the build belongs in an earlier stage)');
  const env = imageEnvironment(stages);
  if (env.HOST !== '0.0.0.0')
    problems.push('Dockerfile: the final stage does not set HOST=0.0.0.0');
  if (env.NODE_ENV !== 'production') problems.push('Dockerfile: NODE_ENV is not production');
  const names = stages.map((s) => s.name);
  if (
    !copies(stages.at(-1)).some(
      ({ from, held }) => from !== undefined && names.includes(from) && held.includes('dist'),
    )
  )
    problems.push('Dockerfile: the final stage does not copy dist/ from the build stage');
  for (const stage of stages)
    for (const { from, sources } of copies(stage))
      if (from === undefined)
        for (const source of sources)
          if (!existsSync(join(ROOT, source)))
            problems.push(`Dockerfile: COPY ${source}: no such file in the repository`);
  return problems;
}

/** The patterns of a .dockerignore, comments and blank lines dropped. */
export const ignorePatterns = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => posix.normalize(line.replace(/^\//, '')).replace(/\/$/, ''));

const globRegExp = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|\\]/g, '\\$&')
      .replace(/\*\*\//g, '\u0000')
      .replace(/\*\*/g, '\u0001')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '[^/]')
      .replace(/\u0000/g, '(?:.*/)?')
      .replace(/\u0001/g, '.*')}$`,
  );

/** Whether the build context leaves this path (or a folder above it) out. */
export function ignored(patterns: readonly string[], path: string): boolean {
  const parts = posix.normalize(path).replace(/\/$/, '').split('/');
  const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  return patterns.some((p) => prefixes.some((prefix) => globRegExp(p).test(prefix)));
}

let ignoreOfRepository: string[] | undefined;
const repositoryIgnore = () =>
  (ignoreOfRepository ??= ignorePatterns(readFileSync(join(ROOT, '.dockerignore'), 'utf8')));

export function dockerignoreProblems(text: string, stages: readonly Stage[]): string[] {
  const patterns = ignorePatterns(text);
  const problems = patterns
    .filter((p) => p.startsWith('!'))
    .map((p) => `.dockerignore: ${p}: exceptions are not checked here`);
  for (const path of ['node_modules', 'dist', '.git', '.kafka', '.run'])
    if (!ignored(patterns, path)) problems.push(`.dockerignore: does not exclude ${path}`);
  for (const stage of stages)
    for (const { from, sources } of copies(stage))
      for (const source of from === undefined ? sources : [])
        if (ignored(patterns, source))
          problems.push(`.dockerignore: excludes ${source}, which the Dockerfile copies`);
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Kubernetes

export interface Manifest {
  file: string;
  doc: Record<string, unknown>;
}

/** The kinds the manifests may hold, each with its schema's model. */
const MODELS: Record<string, ((doc: never) => { validate(): void }) | undefined> = {
  'apps/v1 Deployment': (doc) => new Deployment(doc),
  'batch/v1 Job': (doc) => new Job(doc),
  'v1 ConfigMap': (doc) => new ConfigMap(doc),
  'v1 Secret': (doc) => new Secret(doc),
  'v1 Service': (doc) => new Service(doc),
};

/** Validates one document against its kind's schema; throws on an unknown kind or a violation. */
export function validateManifest(doc: Record<string, unknown>): void {
  const kind = `${String(doc.apiVersion)} ${String(doc.kind)}`;
  const model = MODELS[kind];
  if (model === undefined) throw new Error(`unknown kind ${kind}`);
  model(doc as never).validate();
}

/** Every YAML document of every file under deploy/k8s but the kustomization. */
export function readManifests(dir: string): Manifest[] {
  const manifests: Manifest[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (!/\.ya?ml$/.test(name) || name === 'kustomization.yaml') continue;
    const file = relative(ROOT, join(dir, name));
    for (const document of parseAllDocuments(readFileSync(join(dir, name), 'utf8'))) {
      if (document.errors.length > 0)
        throw new Error(`${file}: ${document.errors.map((e) => e.message).join('; ')}`);
      const doc: unknown = document.toJS();
      if (doc === null) continue;
      if (typeof doc !== 'object' || Array.isArray(doc)) throw new Error(`${file}: not an object`);
      manifests.push({ file, doc: doc as Record<string, unknown> });
    }
  }
  return manifests;
}

const nameOf = (m: Manifest) =>
  `${m.file} ${String(m.doc.kind)}/${String((m.doc.metadata as { name?: string })?.name)}`;
const ofKind = <T>(manifests: readonly Manifest[], kind: string) =>
  manifests.filter((m) => m.doc.kind === kind) as (Manifest & { doc: T })[];

/** The port a probe's httpGet names: a number, or a container port's name. */
function probePort(container: IContainer, port: number | string): number | undefined {
  if (typeof port === 'number') return port;
  if (/^\d+$/.test(port)) return Number(port);
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

function containerEnvironment(
  where: string,
  container: IContainer,
  configMaps: readonly IConfigMap[],
  secrets: readonly ISecret[],
): { set: Record<string, string>; problems: string[] } {
  const set: Record<string, string> = {};
  const problems: string[] = [];
  /** The variables whose (last) value came from a Secret. */
  const fromSecret = new Set<string>();
  const configMap = (name: string) => configMaps.find((c) => c.metadata?.name === name);
  const secret = (name: string) => secrets.find((s) => s.metadata?.name === name);
  for (const source of container.envFrom ?? []) {
    const ref = source.configMapRef?.name ?? source.secretRef?.name ?? '';
    const data = source.configMapRef
      ? configMap(ref)?.data
      : { ...secret(ref)?.data, ...secret(ref)?.stringData };
    if (data === undefined) problems.push(`${where}: envFrom names ${ref}, which is not here`);
    for (const [key, value] of Object.entries(data ?? {})) {
      const name = `${source.prefix ?? ''}${key}`;
      set[name] = value;
      if (source.secretRef) fromSecret.add(name);
      else fromSecret.delete(name);
    }
  }
  for (const { name, value, valueFrom } of container.env ?? []) {
    fromSecret.delete(name);
    if (value !== undefined) set[name] = value;
    else if (valueFrom?.secretKeyRef) {
      const { name: ref, key } = valueFrom.secretKeyRef;
      const found = secret(ref ?? '')?.stringData?.[key] ?? secret(ref ?? '')?.data?.[key];
      if (found === undefined) problems.push(`${where}: ${name} reads ${ref}/${key}, not here`);
      else {
        set[name] = found;
        fromSecret.add(name);
      }
    } else if (valueFrom?.configMapKeyRef) {
      const { name: ref, key } = valueFrom.configMapKeyRef;
      const found = configMap(ref ?? '')?.data?.[key];
      if (found === undefined) problems.push(`${where}: ${name} reads ${ref}/${key}, not here`);
      else set[name] = found;
    } else problems.push(`${where}: ${name} has neither a value nor a key reference`);
  }
  for (const name of Object.keys(set))
    if (SECRET_VARIABLES.has(name) && !fromSecret.has(name))
      problems.push(`${where}: ${name} is not from a Secret`);
  return { set, problems };
}

/** Whether the container has the file at `path` from a Secret mounted as a volume. */
const secretFile =
  (container: IContainer, pod: IPodTemplateSpec | undefined, secrets: readonly ISecret[]) =>
  (path: string): string | undefined => {
    const mount = (container.volumeMounts ?? []).find((m) =>
      path.startsWith(`${m.mountPath.replace(/\/$/, '')}/`),
    );
    if (mount === undefined) return 'is under no volume mount';
    const secretName = pod?.spec?.volumes?.find((v) => v.name === mount.name)?.secret?.secretName;
    if (secretName === undefined) return `is on volume ${mount.name}, which is no Secret`;
    const secret = secrets.find((s) => s.metadata?.name === secretName);
    if (secret === undefined) return `is in Secret ${secretName}, which is not here`;
    const file = posix.relative(mount.mountPath, path);
    const volume = pod?.spec?.volumes?.find((v) => v.name === mount.name)?.secret;
    const key = volume?.items ? volume.items.find((i) => i.path === file)?.key : file;
    if (key === undefined || { ...secret.data, ...secret.stringData }[key] === undefined)
      return `is no key of Secret ${secretName}`;
    return undefined;
  };

/** The names of the Secrets pods mount as files (their keys are file names, not variables). */
const mountedSecrets = (templates: readonly (IPodTemplateSpec | undefined)[]) =>
  new Set(
    templates.flatMap((t) =>
      (t?.spec?.volumes ?? []).flatMap((v) => (v.secret?.secretName ? [v.secret.secretName] : [])),
    ),
  );

function podProblems(where: string, template: IPodTemplateSpec | undefined): string[] {
  const problems: string[] = [];
  const pod = template?.spec;
  if (pod === undefined) return [`${where}: no pod template`];
  if (pod.securityContext?.runAsNonRoot !== true)
    problems.push(`${where}: the pod does not set runAsNonRoot`);
  // The image's USER is a name; the kubelet refuses runAsNonRoot for a name without a number.
  if (!(Number(pod.securityContext?.runAsUser) > 0))
    problems.push(`${where}: the pod sets no non-zero runAsUser`);
  for (const container of pod.containers) {
    const at = `${where} container ${container.name}`;
    if (container.image !== 'ranking')
      problems.push(`${at}: image ${container.image}, not ranking`);
    if (
      container.resources?.requests === undefined ||
      container.resources.limits?.memory === undefined
    )
      problems.push(`${at}: no resource requests or memory limit`);
    if (container.securityContext?.allowPrivilegeEscalation !== false)
      problems.push(`${at}: allows privilege escalation`);
  }
  return problems;
}

/** Problems of one of our services' containers: ports, probes and the scrape annotations. */
function serviceContainerProblems(
  where: string,
  container: IContainer,
  port: number,
  annotations: Readonly<Record<string, string>>,
): string[] {
  const problems: string[] = [];
  const ports = (container.ports ?? []).map((p) => p.containerPort);
  if (!ports.includes(port))
    problems.push(`${where}: containerPort ${ports.join(', ')}, not ${port}`);
  const probes: [string, IProbe | undefined, string | undefined][] = [
    ['livenessProbe', container.livenessProbe, PROBE_PATHS.live],
    ['readinessProbe', container.readinessProbe, PROBE_PATHS.ready],
    ['startupProbe', container.startupProbe, undefined],
  ];
  for (const [name, probe, path] of probes) {
    if (probe === undefined) {
      if (path !== undefined) problems.push(`${where}: no ${name}`);
      continue;
    }
    const get = probe.httpGet;
    if (get === undefined) {
      problems.push(`${where}: ${name} is not an HTTP GET`);
      continue;
    }
    if (!PROBES.has(get.path ?? ''))
      problems.push(`${where}: ${name} on ${get.path}, not a probe path`);
    else if (path !== undefined && get.path !== path)
      problems.push(`${where}: ${name} on ${get.path}, not ${path}`);
    const at = probePort(container, get.port);
    if (at !== port) problems.push(`${where}: ${name} on port ${get.port} (${at}), not ${port}`);
  }
  if (annotations['prometheus.io/scrape'] === 'true') {
    if (annotations['prometheus.io/port'] !== String(port))
      problems.push(
        `${where}: prometheus.io/port ${annotations['prometheus.io/port']}, not ${port}`,
      );
    if (annotations['prometheus.io/path'] !== PROBE_PATHS.metrics)
      problems.push(`${where}: prometheus.io/path is not ${PROBE_PATHS.metrics}`);
  } else problems.push(`${where}: no prometheus.io/scrape annotation`);
  return problems;
}

/** Cross-checks of the manifests (run after each has validated against its schema). */
export function manifestProblems(
  manifests: readonly Manifest[],
  image: Readonly<Record<string, string>>,
): string[] {
  const problems: string[] = [];
  const configMaps = ofKind<IConfigMap>(manifests, 'ConfigMap');
  const secrets = ofKind<ISecret>(manifests, 'Secret');
  for (const m of configMaps)
    for (const name of unknownVariables(Object.keys(m.doc.data ?? {})))
      problems.push(`${nameOf(m)}: ${name} is not a variable the services' configuration knows`);
  const deployments = ofKind<IDeployment>(manifests, 'Deployment');
  const workloads = [
    ...deployments.map((m) => ({ m, template: m.doc.spec?.template })),
    ...ofKind<IJob>(manifests, 'Job').map((m) => ({ m, template: m.doc.spec?.template })),
  ];
  const files = mountedSecrets(workloads.map((w) => w.template));
  for (const m of secrets.filter((s) => !files.has(s.doc.metadata?.name ?? '')))
    for (const name of unknownVariables(Object.keys({ ...m.doc.data, ...m.doc.stringData })))
      problems.push(`${nameOf(m)}: ${name} is not a variable the services' configuration knows`);

  const services = new Set<string>();
  for (const { m, template } of workloads) {
    problems.push(...podProblems(nameOf(m), template));
    for (const container of template?.spec?.containers ?? []) {
      const where = `${nameOf(m)} container ${container.name}`;
      const env = containerEnvironment(
        where,
        container,
        configMaps.map((c) => c.doc),
        secrets.map((s) => s.doc),
      );
      const role = roleOf([...(container.command ?? []), ...(container.args ?? [])]);
      const { problems: found, port } = environmentProblems(
        where,
        env.set,
        role,
        image,
        secretFile(
          container,
          template,
          secrets.map((s) => s.doc),
        ),
      );
      problems.push(...env.problems, ...found);
      if (typeof role === 'string' || role.kind === 'cli') {
        if (m.doc.kind === 'Deployment') problems.push(`${where}: a Deployment that is no service`);
        continue;
      }
      services.add(role.service);
      if (m.doc.kind !== 'Deployment') problems.push(`${where}: a service outside a Deployment`);
      problems.push(
        ...serviceContainerProblems(where, container, port!, template?.metadata?.annotations ?? {}),
      );
    }
  }
  for (const m of deployments) {
    if (m.doc.spec?.replicas !== 1)
      problems.push(`${nameOf(m)}: replicas is not 1 (the tested one)`);
    const grace = m.doc.spec?.template.spec?.terminationGracePeriodSeconds ?? 30;
    if (grace < 15) problems.push(`${nameOf(m)}: terminationGracePeriodSeconds ${grace} < 15`);
  }
  for (const service of SERVICES)
    if (!services.has(service)) problems.push(`deploy/k8s: no Deployment runs ${service}`);
  const setup = (c: IContainer) => {
    const role = roleOf([...(c.command ?? []), ...(c.args ?? [])]);
    return typeof role !== 'string' && role.kind === 'cli' && role.command === 'setup';
  };
  const jobs = workloads.filter(({ m }) => m.doc.kind === 'Job');
  if (!jobs.some(({ template }) => template?.spec?.containers.some(setup)))
    problems.push('deploy/k8s: no Job runs bin/ranking.js setup');

  for (const m of ofKind<IService>(manifests, 'Service')) {
    const selector = Object.entries(m.doc.spec?.selector ?? {});
    const target = deployments.find((d) => {
      const labels = d.doc.spec?.template.metadata?.labels ?? {};
      return selector.length > 0 && selector.every(([k, v]) => labels[k] === v);
    });
    if (target === undefined) {
      problems.push(`${nameOf(m)}: its selector matches no Deployment's pods`);
      continue;
    }
    const containers = target.doc.spec?.template.spec?.containers ?? [];
    for (const { port, targetPort = port } of m.doc.spec?.ports ?? [])
      if (
        !containers.some(
          (c) =>
            probePort(c, targetPort) !== undefined &&
            (c.ports ?? []).some((p) => p.containerPort === probePort(c, targetPort)),
        )
      )
        problems.push(
          `${nameOf(m)}: targetPort ${targetPort} is no container port of ${nameOf(target)}`,
        );
  }
  return problems;
}

/** The kustomization lists every manifest file, and names the image the containers use. */
export function kustomizationProblems(dir: string, manifests: readonly Manifest[]): string[] {
  const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as {
    resources?: string[];
    images?: { name: string }[];
  };
  const files = [...new Set(manifests.map((m) => relative(dir, join(ROOT, m.file))))].sort();
  const listed = [...(kustomization.resources ?? [])].sort();
  const problems: string[] = [];
  if (JSON.stringify(files) !== JSON.stringify(listed))
    problems.push(`kustomization.yaml: resources ${listed.join(', ')}; files ${files.join(', ')}`);
  if (!(kustomization.images ?? []).some((i) => i.name === 'ranking'))
    problems.push('kustomization.yaml: does not set the ranking image');
  return problems;
}

// ---------------------------------------------------------------------------------------------
// docker compose

interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  command?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  healthcheck?: { test?: string | string[] };
  depends_on?: string[] | Record<string, { condition?: string }>;
  ports?: (string | number | { target?: number })[];
  profiles?: string[];
  volumes?: (string | { source?: string; target?: string })[];
}

/** Whether the service has the file at `path` on one of its volumes. */
const volumeFile =
  (service: ComposeService): FileSource =>
  (path) =>
    (service.volumes ?? []).some((v) => {
      const target = typeof v === 'string' ? v.split(':')[1] : v.target;
      return target !== undefined && path.startsWith(`${target.replace(/\/$/, '')}/`);
    })
      ? undefined
      : 'is on no volume of the service';

export function readCompose(file: string): { services: Record<string, ComposeService> } {
  return parse(readFileSync(file, 'utf8'), { merge: true }) as {
    services: Record<string, ComposeService>;
  };
}

const composeEnvironment = (service: ComposeService): Record<string, string> => {
  const env = service.environment ?? {};
  if (Array.isArray(env))
    return Object.fromEntries(
      env.map((line) => [line.split('=')[0]!, line.split('=').slice(1).join('=')]),
    );
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? '' : String(v)]));
};

/** The deploy/.env variable of a principal's password, as kafka/compose-init.sh names it. */
export const composePasswordVariable = (principal: string): string =>
  `KAFKA_${principal
    .replace(/-service$/, '')
    .replace(/-/g, '_')
    .toUpperCase()}_PASSWORD`;

/**
 * The broker's PLAIN users: the service that mounts kafka/compose-init.sh, the variables it is
 * given, and the users the script writes into the broker's JAAS file (its `for user in` list).
 */
function composeBrokerUsers(
  file: string,
  compose: { services: Record<string, ComposeService> },
): { name: string; script: string; variables: Set<string>; users: Set<string> } | undefined {
  for (const [name, service] of Object.entries(compose.services)) {
    const script = (service.volumes ?? [])
      .map((v) => (typeof v === 'string' ? v.split(':')[0] : v.source))
      .find((source) => source?.endsWith('compose-init.sh'));
    if (script === undefined) continue;
    const text = readFileSync(resolve(dirname(file), script), 'utf8');
    const users = /^\s*for user in ([^;]+); do/m.exec(text)?.[1] ?? '';
    return {
      name,
      script: relative(ROOT, resolve(dirname(file), script)),
      variables: new Set(Object.keys(composeEnvironment(service))),
      users: new Set(users.split(/\s+/).filter((u) => u !== '')),
    };
  }
  return undefined;
}

/** Whether the broker knows the service's principal, by the password variable it reads. */
function composeUserProblems(
  at: string,
  env: Readonly<Record<string, string>>,
  broker: ReturnType<typeof composeBrokerUsers>,
): string[] {
  const user = env.KAFKA_SASL_USERNAME;
  if (user === undefined) return [];
  const problems: string[] = [];
  const variable = composePasswordVariable(user);
  const read = /^\$\{([A-Z0-9_]+):\?/.exec(env.KAFKA_SASL_PASSWORD ?? '')?.[1];
  if (read !== undefined && read !== variable)
    problems.push(`${at}: KAFKA_SASL_PASSWORD reads ${read}, not ${variable} (${user}'s)`);
  if (broker !== undefined && !broker.users.has(user))
    problems.push(`${at}: ${user} is no user in the broker's JAAS file (${broker.script})`);
  if (broker !== undefined && !broker.variables.has(variable))
    problems.push(`${at}: ${broker.name} is not given ${variable}`);
  return problems;
}

/**
 * The environment as compose hands it to the container: each `${VAR:?message}` replaced by a
 * value of deploy/.env (here a stand-in: 24 hex bytes, as the file's comment makes them).
 */
const interpolated = (env: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(env).map(([name, value]) => [
      name,
      value.replace(/\$\{[A-Z0-9_]+:\?[^}]*\}/g, 'a1'.repeat(24)),
    ]),
  );

export function composeProblems(
  file: string,
  compose: { services: Record<string, ComposeService> },
  image: Readonly<Record<string, string>>,
): string[] {
  const problems: string[] = [];
  const where = relative(ROOT, file);
  const services = new Set<string>();
  const commandOf = (service: ComposeService) =>
    typeof service.command === 'string' ? service.command.split(/\s+/) : (service.command ?? []);
  const migrate = Object.entries(compose.services).find(([, service]) => {
    const role = roleOf(commandOf(service));
    return typeof role !== 'string' && role.kind === 'cli' && role.command === 'setup';
  })?.[0];
  if (migrate === undefined) problems.push(`${where}: no service runs bin/ranking.js setup`);
  const broker = composeBrokerUsers(file, compose);
  if (broker === undefined)
    problems.push(`${where}: no service mounts kafka/compose-init.sh (the broker's users)`);
  for (const [name, service] of Object.entries(compose.services)) {
    const ours = service.build !== undefined || service.image?.startsWith('ranking') === true;
    if (!ours) continue; // Kafka, PostgreSQL and Redis take their images' own variables.
    const at = `${where} ${name}`;
    if (service.build !== undefined) {
      const build = typeof service.build === 'string' ? { context: service.build } : service.build;
      const dockerfile = resolve(
        file,
        '..',
        build.context ?? '.',
        build.dockerfile ?? 'Dockerfile',
      );
      if (dockerfile !== join(ROOT, 'Dockerfile'))
        problems.push(`${at}: builds ${relative(ROOT, dockerfile)}, not the Dockerfile`);
    }
    const command = commandOf(service);
    const role = roleOf(command);
    for (const [variable, value] of Object.entries(composeEnvironment(service)))
      if (SECRET_VARIABLES.has(variable) && !/^\$\{[A-Z0-9_]+:\?[^}]*\}$/.test(value))
        problems.push(`${at}: ${variable} is written here, not read from deploy/.env (\${VAR:?})`);
    problems.push(...composeUserProblems(at, composeEnvironment(service), broker));
    const { problems: found, port } = environmentProblems(
      at,
      interpolated(composeEnvironment(service)),
      role,
      image,
      volumeFile(service),
    );
    problems.push(...found);
    if (typeof role === 'string') continue;
    if (role.kind === 'cli') {
      if (role.command === 'simulate' && !service.profiles?.includes('simulator'))
        problems.push(`${at}: the simulator is not under the simulator profile`);
      for (const arg of command.slice(command.indexOf('bin/ranking.js') + 2))
        if (/\.json$/.test(arg) && !imageHolds(arg))
          problems.push(`${at}: ${arg} is not in the image`);
      continue;
    }
    services.add(role.service);
    const test = service.healthcheck?.test;
    const words = typeof test === 'string' ? [test] : (test ?? []);
    const [, hostPort, path] =
      /http:\/\/(?:127\.0\.0\.1|localhost):(\d+)(\/[^'"`)]*)/.exec(words.join(' ')) ?? [];
    if (hostPort === undefined || path === undefined) problems.push(`${at}: no HTTP healthcheck`);
    else {
      if (Number(hostPort) !== port)
        problems.push(`${at}: healthcheck on port ${hostPort}, not ${port}`);
      if (path !== PROBE_PATHS.ready)
        problems.push(`${at}: healthcheck on ${path}, not ${PROBE_PATHS.ready}`);
    }
    const script =
      words[0] === 'CMD' && words[1] === 'node' && words[2] === '-e' ? words[3] : undefined;
    if (script !== undefined) {
      try {
        new Script(script);
      } catch (error) {
        problems.push(
          `${at}: the healthcheck's script does not parse: ${(error as Error).message}`,
        );
      }
    }
    for (const published of service.ports ?? []) {
      const target =
        typeof published === 'object'
          ? published.target
          : Number(String(published).split(':').at(-1));
      if (target !== port) problems.push(`${at}: publishes container port ${target}, not ${port}`);
    }
    const depends = service.depends_on;
    const onMigrate =
      Array.isArray(depends) || migrate === undefined ? undefined : depends?.[migrate];
    if (onMigrate?.condition !== 'service_completed_successfully')
      problems.push(`${at}: does not wait for the migrate to complete`);
  }
  for (const service of SERVICES)
    if (!services.has(service)) problems.push(`${where}: no ${service}`);
  return problems;
}
