import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import kafkajs, { type Cluster, type Kafka } from 'kafkajs';
import { backoffDelay, sleep } from './backoff.js';
import {
  ALTER_USER_SCRAM_CREDENTIALS,
  decodeAlterScramCredentials,
  decodeDescribeScramCredentials,
  DESCRIBE_USER_SCRAM_CREDENTIALS,
  type DescribeScramCredentialsResponse,
  encodeAlterScramCredentials,
  encodeDescribeScramCredentials,
  type KafkaEncoder,
  type ScramCredentialInfo,
  SCRAM_SHA_512,
  scramSha512SaltedPassword,
  type ScramUserResult,
  type AlterScramCredentialsResponse,
} from './scram-credentials-wire.js';

/*
 * Why this file: game servers are Kafka principals of their own, created and removed at run
 * time by the operators' CLI (`ranking producer add NAME`). kafkajs 2.2.4, the client this
 * system is fixed on, has no admin call for SCRAM credentials, so AlterUserScramCredentials
 * and DescribeUserScramCredentials (KIP-554) are sent here through kafkajs's own connections:
 * the same brokers, TLS and SASL login as the `kafka` client given, its request queue, timeouts
 * and logs. kafkajs keeps its cluster private, so it is reached through the client's internal
 * symbol; that ties this file to kafkajs 2.2.x (package-lock.json and patches/ hold 2.2.4).
 */

export type { ScramCredentialInfo, ScramMechanism } from './scram-credentials-wire.js';

// kafkajs is CommonJS: Node sees only some of its exports as named ones.
const { KafkaJSProtocolError, KafkaJSNonRetriableError } = kafkajs;

/** The default iteration count: Kafka takes 4096 to 16384 for SCRAM-SHA-512. */
export const SCRAM_ITERATIONS = 8192;

/** A user and the SCRAM credentials the broker holds for it. */
export interface ScramUser {
  readonly user: string;
  readonly credentials: readonly ScramCredentialInfo[];
}

/** A refusal of a SCRAM credentials call, kafkajs-style: `type`, `code`, `retriable`. */
export class ScramCredentialsError extends KafkaJSProtocolError {
  override readonly name: string = 'ScramCredentialsError';

  constructor(
    readonly apiName: string,
    /** The user the refusal is about; null when it is about the whole request. */
    readonly user: string | null,
    protocolError: { type: string; code: number; retriable: boolean; message: string },
    /** The error message the broker sent, in full. */
    readonly brokerMessage: string | null = null,
  ) {
    // kafkajs's protocol errors take the protocol's error entry ({type, code, retriable, message}).
    super(protocolError as unknown as Error);
  }
}

// The protocol's error table as kafkajs 2.2.4 has it (codes up to 88), and the later codes
// these calls answer with, which it lacks.
const require = createRequire(import.meta.url);
const { errorCodes } = require('kafkajs/src/protocol/error.js') as {
  errorCodes: readonly { type: string; code: number; retriable: boolean; message: string }[];
};
const LATER_ERROR_CODES = [
  {
    type: 'THROTTLING_QUOTA_EXCEEDED',
    code: 89,
    retriable: true,
    message: 'The throttling quota has been exceeded',
  },
  { type: 'PRODUCER_FENCED', code: 90, retriable: false, message: 'The producer was fenced' },
  {
    type: 'RESOURCE_NOT_FOUND',
    code: 91,
    retriable: false,
    message: 'A request illegally referred to a resource that does not exist',
  },
  {
    type: 'DUPLICATE_RESOURCE',
    code: 92,
    retriable: false,
    message: 'A request illegally referred to the same resource twice',
  },
  {
    type: 'UNACCEPTABLE_CREDENTIAL',
    code: 93,
    retriable: false,
    message: 'Requested credential would not meet criteria for acceptability',
  },
];
const RESOURCE_NOT_FOUND = 91;

/** What an operator should know about a refusal these calls meet. */
const HINTS: Readonly<Record<string, string>> = {
  CLUSTER_AUTHORIZATION_FAILED:
    'this principal may not administer SCRAM credentials: that takes ALTER (DESCRIBE to list them) on the cluster, which the admin super user has',
  UNSUPPORTED_SASL_MECHANISM: 'the broker does not support the mechanism SCRAM-SHA-512',
  UNACCEPTABLE_CREDENTIAL:
    'the broker refused the credential (a user name must not be empty; SCRAM-SHA-512 takes 4096 to 16384 iterations)',
  RESOURCE_NOT_FOUND: 'the user has no SCRAM-SHA-512 credential',
  DUPLICATE_RESOURCE: 'the user was named twice in one request',
  UNSUPPORTED_VERSION: 'the broker does not speak this request version (Kafka 2.7 or later does)',
};

/**
 * The broker's own words, when they are a sentence ("Too few iterations"): a refused
 * forwarded request comes back as the dump of the whole request, which says nothing more.
 */
const brokerSays = (message: string | null): string | null =>
  message === null || message.length === 0 || message.length > 200 ? null : message;

/** The kafkajs-style error for a protocol error code the broker answered with. */
export function scramCredentialsError(
  apiName: string,
  user: string | null,
  code: number,
  brokerMessage: string | null,
): ScramCredentialsError {
  const known = [...errorCodes, ...LATER_ERROR_CODES].find((e) => e.code === code) ?? {
    type: `UNKNOWN_ERROR_CODE_${code}`,
    code,
    retriable: false,
    message: `Unknown error code ${code}`,
  };
  const subject = user === null ? apiName : `${apiName} for user "${user}"`;
  const hint = HINTS[known.type];
  const message =
    `${subject}: ${known.type} (${brokerSays(brokerMessage) ?? known.message})` +
    (hint ? `; ${hint}` : '');
  return new ScramCredentialsError(apiName, user, { ...known, message }, brokerMessage);
}

/** The parts of kafkajs's (private) Broker used here. */
interface BrokerInternals {
  readonly brokerAddress: string;
  readonly versions: Readonly<Record<number, { minVersion: number; maxVersion: number }>> | null;
  readonly connectionPool: {
    send<T>(protocol: {
      request: {
        apiKey: number;
        apiVersion: number;
        apiName: string;
        encode: () => Promise<KafkaEncoder>;
      };
      response: { decode: (payload: Buffer) => Promise<T>; parse: (data: T) => Promise<T> };
      logResponseError?: boolean;
    }): Promise<T>;
  };
}

const CREATE_CLUSTER = 'private:Kafka:createCluster';

/** A cluster of kafkajs's own, connected as `kafka` is configured (brokers, TLS, SASL). */
function clusterOf(kafka: Kafka): Cluster {
  const symbol = Object.getOwnPropertySymbols(kafka).find((s) => s.description === CREATE_CLUSTER);
  const create = symbol && (kafka as unknown as Record<symbol, unknown>)[symbol];
  if (typeof create !== 'function')
    throw new KafkaJSNonRetriableError(
      `this kafkajs has no ${CREATE_CLUSTER}: SCRAM credentials need kafkajs 2.2.x`,
    );
  return (create as (options: object) => Cluster)({ allowAutoTopicCreation: false });
}

/**
 * The controller as the metadata names it, or else any broker: in KRaft every broker forwards
 * AlterUserScramCredentials to the active controller, and the "controller" a KRaft broker
 * names in metadata is just some live broker.
 */
async function adminBroker(cluster: Cluster): Promise<BrokerInternals> {
  await cluster.refreshMetadata();
  try {
    return (await cluster.findControllerBroker()) as unknown as BrokerInternals;
  } catch {
    const [any] = cluster.getNodeIds();
    if (any === undefined) throw new KafkaJSNonRetriableError('the cluster names no brokers');
    return (await cluster.findBroker({ nodeId: String(any) })) as unknown as BrokerInternals;
  }
}

type Api = typeof ALTER_USER_SCRAM_CREDENTIALS | typeof DESCRIBE_USER_SCRAM_CREDENTIALS;

/** Fails, non-retriably, where the broker's ApiVersions lack the API at this version. */
function requireApi(broker: BrokerInternals, api: Api): void {
  const range = broker.versions?.[api.apiKey];
  if (!range || api.apiVersion < range.minVersion || api.apiVersion > range.maxVersion) {
    const has = range ? `v${range.minVersion}-v${range.maxVersion}` : 'none';
    throw new ScramCredentialsError(api.apiName, null, {
      type: 'UNSUPPORTED_VERSION',
      code: 35,
      retriable: false,
      message: `${api.apiName}: UNSUPPORTED_VERSION (the broker at ${broker.brokerAddress} supports ${has}, this client sends v${api.apiVersion}); ${HINTS.UNSUPPORTED_VERSION}`,
    });
  }
}

const ATTEMPTS = 4;

/**
 * Sends one request to the controller (or any broker) through a cluster of the client's own,
 * retrying what is retriable (a connection lost, a controller moving, a request timed out) a
 * few times; the last error is thrown as it came, its `retriable` flag intact.
 */
async function send<T extends { throttleTimeMs: number }>(
  kafka: Kafka,
  api: Api,
  encode: () => KafkaEncoder,
  decode: (payload: Buffer) => T,
  check: (data: T) => void,
): Promise<T> {
  const cluster = clusterOf(kafka);
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await cluster.connect();
        const broker = await adminBroker(cluster);
        requireApi(broker, api);
        const data = await broker.connectionPool.send({
          request: { ...api, encode: () => Promise.resolve(encode()) },
          response: {
            // kafkajs throttles the connection by what `clientSideThrottleTime` says (KIP-219).
            decode: (payload) => {
              const decoded = decode(payload);
              return Promise.resolve({
                ...decoded,
                clientSideThrottleTime: decoded.throttleTimeMs,
              });
            },
            parse: (decoded) => Promise.resolve(decoded),
          },
        });
        check(data);
        return data;
      } catch (error) {
        if ((error as { retriable?: unknown }).retriable !== true || attempt >= ATTEMPTS)
          throw error;
        await sleep(backoffDelay(attempt));
      }
    }
  } finally {
    await cluster.disconnect();
  }
}

/** Throws the first refusal among the per-user results, but those `tolerated`. */
function failOnRefusal(
  apiName: string,
  results: readonly ScramUserResult[],
  tolerated: readonly number[] = [],
): void {
  const refused = results.find((r) => r.errorCode !== 0 && !tolerated.includes(r.errorCode));
  if (refused)
    throw scramCredentialsError(apiName, refused.user, refused.errorCode, refused.errorMessage);
}

/** The result of the one user a request named, which the broker must have answered. */
function resultFor(apiName: string, user: string, results: readonly ScramUserResult[]) {
  const result = results.find((r) => r.user === user);
  if (!result)
    throw new KafkaJSNonRetriableError(`${apiName}: the broker's answer lacks user "${user}"`);
  return result;
}

/**
 * Creates `user`'s SCRAM-SHA-512 credential, or replaces it (a new password): a random 32-byte
 * salt and SaltedPassword = PBKDF2-HMAC-SHA-512(password, salt, iterations, 64), per RFC 5802
 * and 7677. The broker never sees the password. Once this returns the controller has committed
 * it; each broker applies it to its logins a moment later (as with ACLs), so a login right
 * after may still be refused. Needs ALTER on the cluster (the admin super user).
 */
export async function upsertScramUser(
  kafka: Kafka,
  user: string,
  password: string,
  iterations = SCRAM_ITERATIONS,
): Promise<void> {
  const { apiName } = ALTER_USER_SCRAM_CREDENTIALS;
  if (password.length === 0)
    throw new KafkaJSNonRetriableError(`${apiName} for user "${user}": the password is empty`);
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > 0x7fffffff)
    throw new KafkaJSNonRetriableError(
      `${apiName} for user "${user}": iterations must be a positive integer, not ${iterations}`,
    );
  const salt = randomBytes(32);
  const saltedPassword = await scramSha512SaltedPassword(password, salt, iterations);
  const upsertion = { user, mechanism: SCRAM_SHA_512.id, iterations, salt, saltedPassword };
  await send<AlterScramCredentialsResponse>(
    kafka,
    ALTER_USER_SCRAM_CREDENTIALS,
    () => encodeAlterScramCredentials([], [upsertion]),
    decodeAlterScramCredentials,
    ({ results }) => failOnRefusal(apiName, [resultFor(apiName, user, results)]),
  );
}

/**
 * Deletes `user`'s SCRAM-SHA-512 credential: true, or false where it had none (already gone,
 * which is no error). Sessions already logged in stay until they reconnect. Needs ALTER on
 * the cluster.
 */
export async function deleteScramUser(kafka: Kafka, user: string): Promise<boolean> {
  const { apiName } = ALTER_USER_SCRAM_CREDENTIALS;
  const { results } = await send<AlterScramCredentialsResponse>(
    kafka,
    ALTER_USER_SCRAM_CREDENTIALS,
    () => encodeAlterScramCredentials([{ user, mechanism: SCRAM_SHA_512.id }], []),
    decodeAlterScramCredentials,
    (data) =>
      failOnRefusal(apiName, [resultFor(apiName, user, data.results)], [RESOURCE_NOT_FOUND]),
  );
  return resultFor(apiName, user, results).errorCode === 0;
}

/**
 * The users with SCRAM credentials and their mechanisms and iterations: those of `users`
 * (a user without any is left out), or all of them for null or []. Answered by the broker
 * from its metadata, which follows the controller by a moment. Needs DESCRIBE on the cluster.
 */
export async function describeScramUsers(
  kafka: Kafka,
  users?: readonly string[] | null,
): Promise<ScramUser[]> {
  const { apiName } = DESCRIBE_USER_SCRAM_CREDENTIALS;
  // None asks for every user; a name twice would be refused (DUPLICATE_RESOURCE).
  const named = [...new Set(users ?? [])];
  const { results } = await send<DescribeScramCredentialsResponse>(
    kafka,
    DESCRIBE_USER_SCRAM_CREDENTIALS,
    () => encodeDescribeScramCredentials(named),
    decodeDescribeScramCredentials,
    (data) => {
      if (data.errorCode !== 0)
        throw scramCredentialsError(apiName, null, data.errorCode, data.errorMessage);
      failOnRefusal(apiName, data.results, [RESOURCE_NOT_FOUND]);
    },
  );
  return results
    .filter((r) => r.errorCode === 0)
    .map(({ user, credentials }) => ({ user, credentials }));
}
