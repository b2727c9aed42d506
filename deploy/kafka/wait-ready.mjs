#!/usr/bin/env node
// Waits until a Kafka broker answers an admin describeCluster().
//
//   node deploy/kafka/wait-ready.mjs [timeoutSeconds]
//
// Brokers: env KAFKA_BROKERS (comma separated, default 127.0.0.1:9092).
// Timeout: first arg, else env KAFKA_WAIT_TIMEOUT (seconds), default 90.
// KAFKA_WAIT_BROKERS: how many brokers the cluster must list (default 1).
// Exit 0 when the broker answered, 1 on timeout.
import { Kafka, logLevel } from 'kafkajs';

const brokers = (process.env.KAFKA_BROKERS || '127.0.0.1:9092')
  .split(',')
  .map((b) => b.trim())
  .filter(Boolean);
const timeoutSec = Number(process.argv[2] ?? process.env.KAFKA_WAIT_TIMEOUT ?? 90);
const timeoutMs = (Number.isFinite(timeoutSec) && timeoutSec > 0 ? timeoutSec : 90) * 1000;
const quiet = process.env.KAFKA_WAIT_QUIET === '1';
const wantBrokers = Number(process.env.KAFKA_WAIT_BROKERS ?? 1) || 1;

const kafka = new Kafka({
  clientId: 'ranking-kafka-wait-ready',
  brokers,
  logLevel: logLevel.NOTHING,
  connectionTimeout: 1000,
  requestTimeout: 3000,
  retry: { retries: 0 },
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const deadline = Date.now() + timeoutMs;
let lastError;

while (Date.now() < deadline) {
  const admin = kafka.admin();
  try {
    await admin.connect();
    const info = await admin.describeCluster();
    await admin.disconnect().catch(() => {});
    if (info.brokers.length < wantBrokers)
      throw new Error(`${info.brokers.length} of ${wantBrokers} brokers registered`);
    if (!quiet) {
      console.log(
        `[kafka] broker ready at ${brokers.join(',')} (cluster ${info.clusterId}, ${info.brokers.length} broker(s), controller ${info.controller})`,
      );
    }
    process.exit(0);
  } catch (err) {
    lastError = err;
    await admin.disconnect().catch(() => {});
    await sleep(Math.min(500, Math.max(0, deadline - Date.now())));
  }
}

if (!quiet) {
  console.error(
    `[kafka] broker at ${brokers.join(',')} not ready after ${timeoutMs / 1000}s: ${lastError?.message ?? 'timeout'}`,
  );
}
process.exit(1);
