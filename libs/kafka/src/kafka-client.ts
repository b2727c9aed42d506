import { readFileSync } from 'node:fs';
import { Logger } from '@nestjs/common';
import { Kafka, type LogEntry, logLevel, type SASLOptions } from 'kafkajs';
import { quietNegativeTimeoutWarning } from './negative-timeout-warning.js';

/** The LOG_LEVEL names kafkajs has a level for (fatal is its error, trace its debug). */
export type KafkaLogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

const KAFKAJS_LEVEL: Record<KafkaLogLevel, logLevel> = {
  fatal: logLevel.ERROR,
  error: logLevel.ERROR,
  warn: logLevel.WARN,
  info: logLevel.INFO,
  debug: logLevel.DEBUG,
  trace: logLevel.DEBUG,
};

/**
 * kafkajs's own log lines go through Nest's logger, so a service prints them as the same JSON
 * lines as its own, with kafkajs's fields (broker, groupId, error…) at the top level.
 */
const nestLogCreator = () => {
  const logger = new Logger('kafkajs');
  return ({ namespace, level, log }: LogEntry) => {
    const { message, timestamp: _t, logger: _l, ...fields } = log;
    const params = { namespace, ...fields };
    switch (level) {
      case logLevel.ERROR:
      case logLevel.NOTHING:
        return logger.error(message, params);
      case logLevel.WARN:
        return logger.warn(message, params);
      case logLevel.INFO:
        return logger.log(message, params);
      case logLevel.DEBUG:
        return logger.debug(message, params);
    }
  };
};

// kafkajs warns at every producer that its default partitioner changed in v2; ours was chosen
// with v2 (keys hash to the same partitions in every client of ours), so the warning is noise.
process.env.KAFKAJS_NO_PARTITIONER_WARNING ??= '1';
// Its request queue's negative timer delay makes Node 24 print a warning that is not JSON.
quietNegativeTimeoutWarning();

/** The SASL mechanisms kafkajs speaks without plug-ins. */
export type KafkaSaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

/** Who a client authenticates as on a SASL listener. */
export interface KafkaSasl {
  readonly mechanism: KafkaSaslMechanism;
  readonly username: string;
  readonly password: string;
}

/**
 * TLS towards the brokers, PEM texts: the CA certificates their certificates must chain to
 * (none: Node's public roots) and, for mutual TLS, the client's certificate and key.
 */
export interface KafkaTls {
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
}

/** Where the brokers are, whether over TLS and, on a SASL listener, who the client is. */
export interface KafkaConnection {
  readonly brokers: string;
  readonly tls?: KafkaTls;
  readonly sasl?: KafkaSasl;
}

/** The Kafka variables of the (validated) environment. */
export interface KafkaEnvironment {
  readonly KAFKA_BROKERS: string;
  readonly KAFKA_SSL?: boolean;
  readonly KAFKA_SSL_CA_FILE?: string;
  readonly KAFKA_SSL_CERT_FILE?: string;
  readonly KAFKA_SSL_KEY_FILE?: string;
  readonly KAFKA_SASL_MECHANISM?: KafkaSaslMechanism;
  readonly KAFKA_SASL_USERNAME?: string;
  readonly KAFKA_SASL_PASSWORD?: string;
}

/** The TLS files the environment names, read (their validation checked them). */
function kafkaTls(env: KafkaEnvironment): KafkaTls {
  const read = (path: string | undefined) =>
    path === undefined ? undefined : readFileSync(path, 'utf8');
  const tls = {
    ca: read(env.KAFKA_SSL_CA_FILE),
    cert: read(env.KAFKA_SSL_CERT_FILE),
    key: read(env.KAFKA_SSL_KEY_FILE),
  };
  return Object.fromEntries(Object.entries(tls).filter(([, v]) => v !== undefined));
}

/**
 * The connection the environment names: TLS when KAFKA_SSL is true, SASL when
 * KAFKA_SASL_MECHANISM is set.
 */
export function kafkaConnection(env: KafkaEnvironment): KafkaConnection {
  const { KAFKA_SASL_MECHANISM: mechanism, KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD } = env;
  return {
    brokers: env.KAFKA_BROKERS,
    ...(env.KAFKA_SSL === true && { tls: kafkaTls(env) }),
    ...(mechanism !== undefined && {
      sasl: {
        mechanism,
        username: KAFKA_SASL_USERNAME ?? '',
        password: KAFKA_SASL_PASSWORD ?? '',
      },
    }),
  };
}

/**
 * A kafkajs client for the connection (or a bare comma-separated broker list, unauthenticated),
 * logging at `level` and above.
 */
export function kafkaClient(
  connection: KafkaConnection | string,
  clientId: string,
  level: KafkaLogLevel = 'error',
): Kafka {
  const { brokers, tls, sasl }: KafkaConnection =
    typeof connection === 'string' ? { brokers: connection } : connection;
  return new Kafka({
    clientId,
    brokers: brokers.split(',').map((b) => b.trim()),
    // Node verifies the brokers' certificates (chain and host name or IP address).
    ...(tls && { ssl: { ...tls } }),
    ...(sasl && { sasl: { ...sasl } as SASLOptions }),
    logLevel: KAFKAJS_LEVEL[level],
    logCreator: nestLogCreator,
    retry: { initialRetryTime: 200, retries: 8 },
  });
}
