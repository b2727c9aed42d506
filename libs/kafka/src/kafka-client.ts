import { Logger } from '@nestjs/common';
import { Kafka, type LogEntry, logLevel } from 'kafkajs';

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

/** A kafkajs client for the comma-separated broker list, logging at `level` and above. */
export function kafkaClient(
  brokers: string,
  clientId: string,
  level: KafkaLogLevel = 'error',
): Kafka {
  return new Kafka({
    clientId,
    brokers: brokers.split(',').map((b) => b.trim()),
    logLevel: KAFKAJS_LEVEL[level],
    logCreator: nestLogCreator,
    retry: { initialRetryTime: 200, retries: 8 },
  });
}
