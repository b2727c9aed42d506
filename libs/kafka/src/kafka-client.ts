import { Kafka, logLevel } from 'kafkajs';

/** A kafkajs client for the comma-separated broker list, quiet unless something is wrong. */
export function kafkaClient(brokers: string, clientId: string): Kafka {
  return new Kafka({
    clientId,
    brokers: brokers.split(',').map((b) => b.trim()),
    logLevel: logLevel.ERROR,
    retry: { initialRetryTime: 200, retries: 8 },
  });
}
