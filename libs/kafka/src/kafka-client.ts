import { Logger } from '@nestjs/common';
import { Kafka, type LogEntry, logLevel, type SASLOptions } from 'kafkajs';

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

/** The SASL mechanisms kafkajs speaks without plug-ins. */
export type KafkaSaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

/** Who a client authenticates as on a SASL listener. */
export interface KafkaSasl {
  readonly mechanism: KafkaSaslMechanism;
  readonly username: string;
  readonly password: string;
}

/** Where the brokers are and, on a SASL listener, who the client is. */
export interface KafkaConnection {
  readonly brokers: string;
  readonly sasl?: KafkaSasl;
}

/** The Kafka variables of the (validated) environment. */
export interface KafkaEnvironment {
  readonly KAFKA_BROKERS: string;
  readonly KAFKA_SASL_MECHANISM?: KafkaSaslMechanism;
  readonly KAFKA_SASL_USERNAME?: string;
  readonly KAFKA_SASL_PASSWORD?: string;
}

/** The connection the environment names: SASL when KAFKA_SASL_MECHANISM is set. */
export function kafkaConnection(env: KafkaEnvironment): KafkaConnection {
  const { KAFKA_SASL_MECHANISM: mechanism, KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD } = env;
  if (mechanism === undefined) return { brokers: env.KAFKA_BROKERS };
  return {
    brokers: env.KAFKA_BROKERS,
    sasl: { mechanism, username: KAFKA_SASL_USERNAME ?? '', password: KAFKA_SASL_PASSWORD ?? '' },
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
  const { brokers, sasl } =
    typeof connection === 'string' ? { brokers: connection, sasl: undefined } : connection;
  return new Kafka({
    clientId,
    brokers: brokers.split(',').map((b) => b.trim()),
    ...(sasl && { sasl: { ...sasl } as SASLOptions }),
    logLevel: KAFKAJS_LEVEL[level],
    logCreator: nestLogCreator,
    retry: { initialRetryTime: 200, retries: 8 },
  });
}
