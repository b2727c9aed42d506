import { createRequire } from 'node:module';
import type { BatchHandler } from './batch-handler.js';
import { BatchSettler } from './batch-settler.js';
import { KAFKA_COMMITTED_OFFSETS } from './checkpoint-guard.js';
import { consumerProblem } from './checkpointed-consumer.js';
import type { ConsumedMessage, PartitionBatch } from './consumed-message.js';
import { kafkaFirst } from './failure-kind.js';
import { KafkaTopicError } from './kafka-failure.js';

// The broker's refusals as kafkajs raises them from a produce response.
const require = createRequire(import.meta.url);
const { createErrorFromCode } = require('kafkajs/src/protocol/error.js') as {
  createErrorFromCode: (code: number) => Error;
};
const MESSAGE_TOO_LARGE = 10;
const TOPIC_AUTHORIZATION_FAILED = 29;

const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };

const batch = (offsets: number[]): PartitionBatch => ({
  partition: 0,
  messages: offsets.map((o) => ({
    topic: 't',
    partition: 0,
    offset: String(o),
    key: null,
    value: Buffer.from(`m${o}`),
  })),
});

/**
 * A handler without a store (as the intake's): `fail` says what applying a set of messages
 * throws, if anything. Records every apply and quarantine.
 */
function handler(fail: (offsets: string[]) => Error | null) {
  const applies: string[][] = [];
  const quarantined: { offset: string; error: unknown }[] = [];
  const h: BatchHandler<void> = {
    transaction: (work) => work(undefined),
    checkpoints: KAFKA_COMMITTED_OFFSETS,
    apply: (_tx, messages: readonly ConsumedMessage[]) => {
      const offsets = messages.map((m) => m.offset);
      applies.push(offsets);
      const error = fail(offsets);
      return error ? Promise.reject(error) : Promise.resolve();
    },
    quarantine: (_tx, message, error) => {
      quarantined.push({ offset: message.offset, error });
      return Promise.resolve();
    },
    classify: kafkaFirst(),
  };
  return { h, applies, quarantined };
}

const settlerOf = (h: BatchHandler<void>) =>
  new BatchSettler(h, {
    topic: 't',
    logger: quiet,
    holds: () => true,
    heartbeat: () => Promise.resolve(),
    rewind: () => undefined,
  });

describe('BatchSettler and the broker refusals (ADR 36)', () => {
  it('Given the broker refusing one message as too large, When settled, Then the batch is split at once and that message alone set aside, none tried twice as it was', async () => {
    const { h, applies, quarantined } = handler((offsets) =>
      offsets.includes('3') ? createErrorFromCode(MESSAGE_TOO_LARGE) : null,
    );
    await settlerOf(h).settle([batch([0, 1, 2, 3, 4, 5, 6, 7])]);
    expect(quarantined.map((q) => q.offset)).toEqual(['3']);
    expect((quarantined[0]!.error as { type?: string }).type).toBe('MESSAGE_TOO_LARGE');
    // 8 -> 4 (fails) -> 2, 2 (fails) -> 1, 1 (fails): each set tried once, then the other half.
    expect(applies).toEqual([
      ['0', '1', '2', '3', '4', '5', '6', '7'],
      ['0', '1', '2', '3'],
      ['0', '1'],
      ['2', '3'],
      ['2'],
      ['3'],
      ['4', '5', '6', '7'],
    ]);
  });

  it('Given a missing grant, When settled, Then it is retried slowly until granted, readiness naming the topic and the grant from the first failure', async () => {
    let granted = false;
    const { h, applies, quarantined } = handler(() =>
      granted
        ? null
        : new KafkaTopicError(
            'p.ranking.game-results.rejected',
            'WRITE',
            createErrorFromCode(TOPIC_AUTHORIZATION_FAILED),
          ),
    );
    const settler = settlerOf(h);
    const settled = settler.settle([batch([0, 1])]);
    while (applies.length < 2) await new Promise((r) => setTimeout(r, 20));
    const state = settler.retryState();
    expect(state?.kind).toBe('misconfigured');
    const problem = consumerProblem(
      { lastContact: Date.now(), retrying: state, quarantined: 0, lag: null, crashed: null },
      Date.now(),
    );
    expect(problem).toBe(
      'p.ranking.game-results.rejected: refused (TOPIC_AUTHORIZATION_FAILED); this principal needs WRITE on the topic; an operator must grant it (ranking setup, kafka-acls); retrying slowly meanwhile',
    );
    granted = true;
    await settled;
    expect(quarantined).toEqual([]);
    expect(applies.every((a) => a.length === 2)).toBe(true);
    expect(settler.retryState()).toBeNull();
  });
});
