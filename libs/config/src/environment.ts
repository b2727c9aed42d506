import 'reflect-metadata';
import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateBy,
  ValidateIf,
  validateSync,
  type ValidationArguments,
} from 'class-validator';
import { keyMatchesCertificate, type PemContent, pemFileProblem } from './pem-file.js';

const BROKER_LIST = /^[A-Za-z0-9.\-[\]:]+:\d{1,5}(,[A-Za-z0-9.\-[\]:]+:\d{1,5})*$/;
const POSTGRES_URL = /^postgres(ql)?:\/\/[^\s]+$/;
/** A single Redis (`redis://`, `rediss://`) or a cluster's seed nodes (`redis+cluster://h:p,h:p`). */
const REDIS_URL =
  /^(rediss?:\/\/[^\s]+|rediss?\+cluster:\/\/([^@/\s]*@)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}(,(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5})*\/?)$/;
const PORT = 'must be a port number (1-65535, or 0 for any free port)';
const HOST = /^[A-Za-z0-9.\-:]{1,253}$/;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
const ORIGIN = String.raw`https?://[A-Za-z0-9.\-[\]:]+`;
const ORIGIN_LIST = new RegExp(`^(${ORIGIN}(,${ORIGIN})*)?$`);
// The proxies' addresses and CIDR ranges, or true (trust every hop: only behind a proxy that
// overwrites X-Forwarded-For). No hop count: Fastify refuses one, as a client could forge hops.
const PROXY = String.raw`(\d{1,3}(\.\d{1,3}){3}(/\d{1,2})?|[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*(/\d{1,3})?|loopback|linklocal|uniquelocal)`;
const TRUST_PROXY = new RegExp(`^(true|false|${PROXY}(,${PROXY})*)$`);
/** The SASL mechanisms kafkajs speaks (the local broker's SASL listener is scram-sha-512). */
export const SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
export type SaslMechanism = (typeof SASL_MECHANISMS)[number];
/** Variables whose value a configuration error must not print. */
const SECRET = new Set([
  'KAFKA_SASL_PASSWORD',
  'DATABASE_RATING_PASSWORD',
  'DATABASE_MAINTENANCE_PASSWORD',
  'DATABASE_LEADERBOARD_PASSWORD',
  'DATABASE_OPS_PASSWORD',
  'DATABASE_INTAKE_PASSWORD',
]);
/** A PostgreSQL role's password: printable ASCII (what SASLprep leaves alone), no spaces. */
const ROLE_PASSWORD = /^[\x21-\x7E]{16,1024}$/;
const ROLE_PASSWORD_MESSAGE = 'must be 16-1024 printable ASCII characters without spaces';

const trimmed = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim() : value;
const lowerCase = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;
const saslGiven = (o: Environment) =>
  o.KAFKA_SASL_MECHANISM !== undefined ||
  o.KAFKA_SASL_USERNAME !== undefined ||
  o.KAFKA_SASL_PASSWORD !== undefined;
const boolean = ({ value }: { value: unknown }) => {
  const word = typeof value === 'string' ? value.trim().toLowerCase() : value;
  return word === 'true' ? true : word === 'false' ? false : value;
};
const clientCertificateGiven = (o: Environment) =>
  o.KAFKA_SSL_CERT_FILE !== undefined || o.KAFKA_SSL_KEY_FILE !== undefined;

/** The file the variable names is readable and holds `content`; the message says what is wrong. */
const PemFile = (content: PemContent) =>
  ValidateBy({
    name: 'pemFile',
    validator: {
      validate: (path: unknown) =>
        typeof path === 'string' && pemFileProblem(path, content) === undefined,
      defaultMessage: (args?: ValidationArguments) =>
        pemFileProblem(String(args?.value), content) ?? 'is invalid',
    },
  });

/** A TLS setting means nothing without TLS: refused rather than silently ignored. */
const OnlyWithTls = () =>
  ValidateBy({
    name: 'onlyWithTls',
    validator: {
      validate: (_value: unknown, args?: ValidationArguments) =>
        (args?.object as Environment).KAFKA_SSL === true,
      defaultMessage: () => 'is a TLS setting: set KAFKA_SSL=true with it',
    },
  });

/** SASL/PLAIN sends the password as it is: only inside TLS. */
const NotPlainWithoutTls = () =>
  ValidateBy({
    name: 'notPlainWithoutTls',
    validator: {
      validate: (mechanism: unknown, args?: ValidationArguments) =>
        mechanism !== 'plain' || (args?.object as Environment).KAFKA_SSL === true,
      defaultMessage: () =>
        'sends the password in clear text: only with KAFKA_SSL=true (a SASL_SSL listener)',
    },
  });

const integer = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;

const noSpaces = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.replace(/\s+/g, '') : value;

/** The process environment the services and the CLI read, with defaults for a local machine. */
export class Environment {
  @Transform(trimmed)
  @Matches(BROKER_LIST, { message: 'must be a comma-separated list of host:port' })
  KAFKA_BROKERS = '127.0.0.1:9092';

  /**
   * TLS towards the brokers (their SASL_SSL or SSL listener), verifying their certificates
   * against KAFKA_SSL_CA_FILE or, unset, Node's public roots. false: plain TCP.
   */
  @Transform(boolean)
  @IsBoolean({ message: 'must be true or false' })
  KAFKA_SSL = false;

  /** PEM file of the CA certificates the brokers' certificates must chain to. */
  @ValidateIf((o: Environment) => o.KAFKA_SSL_CA_FILE !== undefined)
  @PemFile('certificates')
  @OnlyWithTls()
  KAFKA_SSL_CA_FILE?: string;

  /** Mutual TLS (optional): the client's PEM certificate (and chain), with KAFKA_SSL_KEY_FILE. */
  @ValidateIf(clientCertificateGiven)
  @PemFile('certificates')
  @OnlyWithTls()
  @IsString({ message: 'is required when KAFKA_SSL_KEY_FILE is set' })
  KAFKA_SSL_CERT_FILE?: string;

  /** Mutual TLS: the unencrypted PEM private key of KAFKA_SSL_CERT_FILE's certificate. */
  @ValidateIf(clientCertificateGiven)
  @ValidateBy({
    name: 'keyOfCertificate',
    validator: {
      validate: (path: unknown, args?: ValidationArguments) =>
        keyMatchesCertificate(
          String(path),
          String((args?.object as Environment).KAFKA_SSL_CERT_FILE),
        ),
      defaultMessage: () => "is not the key of KAFKA_SSL_CERT_FILE's certificate",
    },
  })
  @PemFile('private key')
  @OnlyWithTls()
  @IsString({ message: 'is required when KAFKA_SSL_CERT_FILE is set' })
  KAFKA_SSL_KEY_FILE?: string;

  /**
   * SASL towards the brokers (unset: none, as on the local plain listener). With it, the
   * username and password are required; `plain` only over TLS.
   */
  @ValidateIf(saslGiven)
  @NotPlainWithoutTls()
  @Transform(lowerCase)
  @IsIn(SASL_MECHANISMS, {
    message: ({ value }) =>
      value === undefined
        ? `must be set (${SASL_MECHANISMS.join(', ')}) when KAFKA_SASL_USERNAME or KAFKA_SASL_PASSWORD is`
        : `must be one of ${SASL_MECHANISMS.join(', ')}, or unset`,
  })
  KAFKA_SASL_MECHANISM?: SaslMechanism;

  @ValidateIf(saslGiven)
  @Matches(/^\S{1,255}$/, { message: 'must be 1-255 characters without spaces' })
  @IsString({ message: 'is required when KAFKA_SASL_MECHANISM is set' })
  KAFKA_SASL_USERNAME?: string;

  @ValidateIf(saslGiven)
  @Matches(/^.{1,1024}$/, { message: 'must be 1-1024 characters on one line' })
  @IsString({ message: 'is required when KAFKA_SASL_MECHANISM is set' })
  KAFKA_SASL_PASSWORD?: string;

  @Transform(trimmed)
  @Matches(POSTGRES_URL, { message: 'must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/ranking';

  /**
   * The passwords `ranking setup` gives the PostgreSQL login roles (ADR 40; unset: a new role
   * gets none, an existing one keeps its own). Only setup reads them.
   */
  @IsOptional()
  @Matches(ROLE_PASSWORD, { message: ROLE_PASSWORD_MESSAGE })
  DATABASE_RATING_PASSWORD?: string;

  @IsOptional()
  @Matches(ROLE_PASSWORD, { message: ROLE_PASSWORD_MESSAGE })
  DATABASE_MAINTENANCE_PASSWORD?: string;

  @IsOptional()
  @Matches(ROLE_PASSWORD, { message: ROLE_PASSWORD_MESSAGE })
  DATABASE_LEADERBOARD_PASSWORD?: string;

  @IsOptional()
  @Matches(ROLE_PASSWORD, { message: ROLE_PASSWORD_MESSAGE })
  DATABASE_OPS_PASSWORD?: string;

  @IsOptional()
  @Matches(ROLE_PASSWORD, { message: ROLE_PASSWORD_MESSAGE })
  DATABASE_INTAKE_PASSWORD?: string;

  @Transform(trimmed)
  @Matches(REDIS_URL, {
    message: 'must be a redis:// URL, or redis+cluster://host:port,host:port for a cluster',
  })
  REDIS_URL = 'redis://127.0.0.1:6379';

  @IsIn(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';

  /** The address every HTTP server binds (containers set 0.0.0.0). */
  @Transform(trimmed)
  @Matches(HOST, { message: 'must be an IP address or a host name' })
  HOST = '127.0.0.1';

  @Transform(integer)
  @IsInt({ message: PORT })
  @Min(0, { message: PORT })
  @Max(65535, { message: PORT })
  HTTP_PORT = 3000;

  /** The rating service's HTTP port (health probes and metrics). */
  @Transform(integer)
  @IsInt({ message: PORT })
  @Min(0, { message: PORT })
  @Max(65535, { message: PORT })
  RATING_HTTP_PORT = 3002;

  /** The maintenance service's HTTP port (health, next closes). */
  @Transform(integer)
  @IsInt({ message: PORT })
  @Min(0, { message: PORT })
  @Max(65535, { message: PORT })
  MAINTENANCE_HTTP_PORT = 3001;

  /** The intake service's HTTP port (health probes and metrics). */
  @Transform(integer)
  @IsInt({ message: PORT })
  @Min(0, { message: PORT })
  @Max(65535, { message: PORT })
  INTAKE_HTTP_PORT = 3003;

  /** Seconds after a period's close before it is published, so games finished before it arrive first. */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number of seconds (0-86400)' })
  @Min(0, { message: 'must be a whole number of seconds (0-86400)' })
  @Max(86400, { message: 'must be a whole number of seconds (0-86400)' })
  MAINTENANCE_GRACE_SECONDS = 120;

  /** How often the maintenance clock looks for due closes, in milliseconds. */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number of milliseconds (10-60000)' })
  @Min(10, { message: 'must be a whole number of milliseconds (10-60000)' })
  @Max(60000, { message: 'must be a whole number of milliseconds (10-60000)' })
  MAINTENANCE_TICK_MS = 1000;

  /**
   * Transactions the rating service splits a large fetch into, run at once (a fetch of fewer
   * than 2,000 events a transaction is one). Partitions hold disjoint ladders, so they don't
   * contend.
   */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number (1-12)' })
  @Min(1, { message: 'must be a whole number (1-12)' })
  @Max(12, { message: 'must be a whole number (1-12)' })
  RATING_TRANSACTIONS_IN_FLIGHT = 3;

  /**
   * Events between a ladder's snapshots (ADR 24): the rating service writes one beside its
   * consumer each time a ladder has taken this many events since its newest.
   */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number of events (100-100000000)' })
  @Min(100, { message: 'must be a whole number of events (100-100000000)' })
  @Max(100_000_000, { message: 'must be a whole number of events (100-100000000)' })
  SNAPSHOT_EVERY_EVENTS = 100_000;

  /** Snapshots kept per ladder, the newest (an annulment reaching further back starts further back). */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number of snapshots (1-1000)' })
  @Min(1, { message: 'must be a whole number of snapshots (1-1000)' })
  @Max(1000, { message: 'must be a whole number of snapshots (1-1000)' })
  SNAPSHOTS_KEPT = 12;

  /**
   * A consumer is ready (`GET /health/ready`) while it is at most this many messages behind the
   * end of its topic: a replica far behind should not count as serving.
   */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number of messages (0-100000000)' })
  @Min(0, { message: 'must be a whole number of messages (0-100000000)' })
  @Max(100_000_000, { message: 'must be a whole number of messages (0-100000000)' })
  READY_MAX_LAG_MESSAGES = 10_000;

  /**
   * Requests a minute one client (an IPv4 address, or an IPv6 /64) may make to the leaderboard
   * API before it is answered 429, counted in Redis for all replicas together; 0 turns the
   * limit off. The probes and /metrics are never limited.
   */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number of requests (0-1000000; 0: no limit)' })
  @Min(0, { message: 'must be a whole number of requests (0-1000000; 0: no limit)' })
  @Max(1_000_000, { message: 'must be a whole number of requests (0-1000000; 0: no limit)' })
  RATE_LIMIT_PER_MINUTE = 600;

  /**
   * Boards as of an instant (`?at=`) the leaderboard builds from the rating history at once,
   * per replica: each costs a pass over the ladder's players (about 0.4 s of CPU for 100,000).
   */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number of builds (1-64)' })
  @Min(1, { message: 'must be a whole number of builds (1-64)' })
  @Max(64, { message: 'must be a whole number of builds (1-64)' })
  POINT_IN_TIME_BUILDS = 1;

  /**
   * Boards as of an instant that may wait for a build slot, per replica; past them a request
   * for a board not in memory is answered 503 with Retry-After.
   */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number of builds (0-10000)' })
  @Min(0, { message: 'must be a whole number of builds (0-10000)' })
  @Max(10_000, { message: 'must be a whole number of builds (0-10000)' })
  POINT_IN_TIME_QUEUE = 8;

  /**
   * Worker threads of the leaderboard service that run the integrity review's heavy work (a
   * ladder's win-trading analysis, an annulment's dry run) off the API's event loop, per replica.
   */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number of threads (1-16)' })
  @Min(1, { message: 'must be a whole number of threads (1-16)' })
  @Max(16, { message: 'must be a whole number of threads (1-16)' })
  REVIEW_WORKERS = 1;

  /**
   * Review tasks that may wait for a worker, per replica; past them a review request that needs
   * one is answered 503 with Retry-After.
   */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number of tasks (0-1000)' })
  @Min(0, { message: 'must be a whole number of tasks (0-1000)' })
  @Max(1000, { message: 'must be a whole number of tasks (0-1000)' })
  REVIEW_QUEUE_LIMIT = 2;

  /**
   * How long a review task may take from the moment it is queued; then its worker is stopped
   * (its transaction rolled back) and the request answered 503.
   */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number of milliseconds (1000-3600000)' })
  @Min(1000, { message: 'must be a whole number of milliseconds (1000-3600000)' })
  @Max(3_600_000, { message: 'must be a whole number of milliseconds (1000-3600000)' })
  REVIEW_TIMEOUT_MS = 120_000;

  /**
   * Games of one ladder the review keeps in memory (about 200 bytes each); past it the oldest
   * are forgotten and the analysis judges the latest this many.
   */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number of games (1000-100000000)' })
  @Min(1000, { message: 'must be a whole number of games (1000-100000000)' })
  @Max(100_000_000, { message: 'must be a whole number of games (1000-100000000)' })
  REVIEW_LADDER_GAMES = 500_000;

  /**
   * PostgreSQL's statement_timeout for the leaderboard API's queries (a pool of their own; the
   * boards' consumer and rebuilds are not limited): a query running longer is cancelled and the
   * request answered 503.
   */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number of milliseconds (100-600000)' })
  @Min(100, { message: 'must be a whole number of milliseconds (100-600000)' })
  @Max(600_000, { message: 'must be a whole number of milliseconds (100-600000)' })
  API_STATEMENT_TIMEOUT_MS = 10_000;

  /** Origins a browser may call the leaderboard API from (comma-separated); empty: none. */
  @Transform(noSpaces)
  @Matches(ORIGIN_LIST, {
    message: 'must be a comma-separated list of origins such as https://example.org',
  })
  CORS_ORIGINS = '';

  /** Which proxies' X-Forwarded-For names the client (Fastify's trustProxy); false: none. */
  @Transform(noSpaces)
  @Matches(TRUST_PROXY, {
    message: 'must be false, true or a comma-separated list of addresses, CIDRs or loopback',
  })
  TRUST_PROXY = 'false';

  /**
   * The largest request body an HTTP server reads, in bytes, else 413; `POST /v1/games` has
   * INGEST_BODY_LIMIT_BYTES instead.
   */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number of bytes (1-10485760)' })
  @Min(1, { message: 'must be a whole number of bytes (1-10485760)' })
  @Max(10_485_760, { message: 'must be a whole number of bytes (1-10485760)' })
  HTTP_BODY_LIMIT_BYTES = 16_384;

  /**
   * The largest body `POST /v1/games` reads (a batch of up to 500 events), in bytes; else 413.
   * Each event is also held to the contract's 65,536 bytes.
   */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number of bytes (1024-33554432)' })
  @Min(1024, { message: 'must be a whole number of bytes (1024-33554432)' })
  @Max(33_554_432, { message: 'must be a whole number of bytes (1024-33554432)' })
  INGEST_BODY_LIMIT_BYTES = 4_194_304;

  /**
   * Requests a minute one token may make to `POST /v1/games` before it is answered 429, counted
   * in Redis for all replicas together (besides RATE_LIMIT_PER_MINUTE per client); 0: no limit.
   */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number of requests (0-1000000; 0: no limit)' })
  @Min(0, { message: 'must be a whole number of requests (0-1000000; 0: no limit)' })
  @Max(1_000_000, { message: 'must be a whole number of requests (0-1000000; 0: no limit)' })
  INGEST_REQUESTS_PER_MINUTE = 600;

  /**
   * Days `ingest_receipts` keeps what `POST /v1/games` answered of each event id; the
   * leaderboard service deletes older receipts, a bounded batch at a time (ADR 42). Within
   * them a resent id is answered `repeat` and not sent again; after them it is sent again and
   * the event store still applies it once.
   */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number of days (1-3650)' })
  @Min(1, { message: 'must be a whole number of days (1-3650)' })
  @Max(3650, { message: 'must be a whole number of days (1-3650)' })
  INGEST_RECEIPT_RETENTION_DAYS = 30;

  /**
   * How long a client may take to send a whole request (headers and body) before the server
   * answers 408 and closes the connection: slow clients don't hold sockets.
   */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number of milliseconds (100-600000)' })
  @Min(100, { message: 'must be a whole number of milliseconds (100-600000)' })
  @Max(600_000, { message: 'must be a whole number of milliseconds (100-600000)' })
  HTTP_REQUEST_TIMEOUT_MS = 10_000;

  /**
   * How long the group coordinator waits without a heartbeat before it drops a consumer that
   * vanished (a killed process) and hands its partitions on: a restarted service waits this
   * long for its partitions. Within the broker's group.min/max.session.timeout.ms.
   */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number of milliseconds (6000-300000)' })
  @Min(6000, { message: 'must be a whole number of milliseconds (6000-300000)' })
  @Max(300_000, { message: 'must be a whole number of milliseconds (6000-300000)' })
  KAFKA_SESSION_TIMEOUT_MS = 30_000;

  /**
   * How often the intake reads the producers (ADR 39): a producer added, changed or removed is
   * consumed, judged by its new ladders or left alone within this long.
   */
  @Transform(integer)
  @IsInt({ message: 'must be a whole number of milliseconds (200-300000)' })
  @Min(200, { message: 'must be a whole number of milliseconds (200-300000)' })
  @Max(300_000, { message: 'must be a whole number of milliseconds (200-300000)' })
  INTAKE_PRODUCERS_REFRESH_MS = 5_000;

  /** Prefix for topic and consumer-group names (isolates test runs on a shared broker). */
  @IsOptional()
  @Matches(/^[A-Za-z0-9._-]{0,100}$/, {
    message: 'may hold letters, digits, ".", "_" and "-" only',
  })
  KAFKA_TOPIC_PREFIX = '';

  /** Prefix of every Redis key the leaderboards write (tests use their own). */
  @Matches(/^[A-Za-z0-9:._-]{0,100}$/, {
    message: 'may hold letters, digits, ":", ".", "_" and "-" only',
  })
  REDIS_KEY_PREFIX = 'ranking:';

  /** Optional JSON file with extra ladders (an array of ladder configs). */
  @IsOptional()
  @IsString()
  RANKING_LADDERS_FILE?: string;

  /** Optional JSON file with the tournaments the leaderboard serves (an array of tournament configs). */
  @IsOptional()
  @IsString()
  RANKING_TOURNAMENTS_FILE?: string;
}

/** A configuration error: one line that names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** The variables without a default (not own properties of a new Environment). */
export const OPTIONAL_VARIABLES = [
  'KAFKA_SSL_CA_FILE',
  'KAFKA_SSL_CERT_FILE',
  'KAFKA_SSL_KEY_FILE',
  'KAFKA_SASL_MECHANISM',
  'KAFKA_SASL_USERNAME',
  'KAFKA_SASL_PASSWORD',
  'DATABASE_RATING_PASSWORD',
  'DATABASE_MAINTENANCE_PASSWORD',
  'DATABASE_LEADERBOARD_PASSWORD',
  'DATABASE_OPS_PASSWORD',
  'DATABASE_INTAKE_PASSWORD',
  'RANKING_LADDERS_FILE',
  'RANKING_TOURNAMENTS_FILE',
] as const;

/** Validates the environment once; throws a ConfigError naming the first bad variable. */
export function loadEnvironment(
  env: Record<string, string | undefined> = process.env,
): Environment {
  const known = Object.keys(new Environment());
  const given: Record<string, string> = {};
  for (const key of [...known, ...OPTIONAL_VARIABLES]) {
    const value = env[key];
    if (value !== undefined && value !== '') given[key] = value;
  }
  const config = plainToInstance(Environment, given, { exposeDefaultValues: true });
  const [error] = validateSync(config, { stopAtFirstError: true });
  if (error) {
    const message = Object.values(error.constraints ?? {})[0] ?? 'is invalid';
    const value = given[error.property] ?? '';
    const shown = SECRET.has(error.property) && value !== '' ? '(hidden)' : JSON.stringify(value);
    throw new ConfigError(`${error.property}=${shown}: ${message}`);
  }
  return config;
}
