import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import {
  DEAD_LETTER_HEADERS,
  NOT_PERMITTED,
  parseEvent,
  producerRejectionTopic,
  producerTopic,
  readRatingChanges,
  REJECTION_CODES,
  TOPICS,
  UNPROCESSABLE,
} from '@ranking/contracts';
import { BUILT_IN_LADDERS, GameResultAdmission } from '@ranking/rating';

// The AsyncAPI document of the topics is for integrators: it must be a valid AsyncAPI 3.0
// document and say what the code does (topic names, headers, codes), with examples that the
// contract's own validators take as it says they do.

const CONTRACTS = join(process.cwd(), 'libs/contracts/src');
const doc = parse(readFileSync(join(CONTRACTS, 'asyncapi.yaml'), 'utf8')) as AsyncApi;

interface Message {
  payload: { schema?: { $ref: string } };
  headers?: { properties: Record<string, unknown>; required: string[] };
  bindings?: { kafka: { key: unknown } };
  examples: { name: string; headers?: Record<string, string>; payload: unknown }[];
}
interface AsyncApi {
  asyncapi: string;
  channels: Record<string, { address: string; messages: Record<string, { $ref: string }> }>;
  operations: Record<string, { action: string; channel: { $ref: string } }>;
  components: {
    schemas: Record<string, { enum?: string[] }>;
    messages: Record<string, Message>;
  };
}

const message = (name: string): Message => doc.components.messages[name]!;
const bytes = (payload: unknown) => new TextEncoder().encode(JSON.stringify(payload));

describe('asyncapi.yaml', () => {
  it('Given the document, Then it is a valid AsyncAPI 3.0 document (the official schema)', () => {
    const require = createRequire(import.meta.url);
    const schema = require('@asyncapi/specs/schemas/3.0.0.json') as object;
    // The schema embeds the draft-07 meta-schema under its own id: Ajv's copy would clash.
    const ajv = new Ajv({ strict: false, meta: false, validateSchema: false, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    const valid = validate(doc);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    expect(doc.asyncapi).toBe('3.0.0');
  });

  it('Given its channels, Then they are exactly the topics of the code, each with an operation', () => {
    // A producer's topics are the contract's names with its name (ADR 39).
    const addresses = Object.values(doc.channels).map((c) => c.address);
    expect(addresses.map((a) => a.replace(/\.\{producer\}$/, '')).sort()).toEqual(
      Object.values(TOPICS).sort(),
    );
    expect(addresses.filter((a) => a.endsWith('.{producer}'))).toEqual([
      producerTopic('{producer}'),
      producerRejectionTopic('{producer}'),
    ]);
    const operated = new Set(Object.values(doc.operations).map((o) => o.channel.$ref));
    for (const name of Object.keys(doc.channels)) expect(operated).toContain(`#/channels/${name}`);
  });

  it('Given a message body, Then it is the JSON Schema the validators use, beside the document', () => {
    const refs = Object.values(doc.components.messages).flatMap((m) =>
      m.payload.schema ? [m.payload.schema.$ref] : [],
    );
    expect(new Set(refs)).toEqual(
      new Set(['./events.schema.json', './rating-changes.schema.json']),
    );
    for (const ref of refs) expect(() => readFileSync(join(CONTRACTS, ref), 'utf8')).not.toThrow();
  });

  it('Given the rejection headers, Then their names and reasons are the code’s', () => {
    const reasons = doc.components.schemas['rejectReason']!.enum!;
    expect([...reasons].sort()).toEqual([...REJECTION_CODES, NOT_PERMITTED, UNPROCESSABLE].sort());
    expect(Object.keys(message('deadLetter').headers!.properties).sort()).toEqual(
      Object.values(DEAD_LETTER_HEADERS).sort(),
    );
    // A rejection has all of a dead letter's headers but who set it aside (always the intake)
    // and whose it is (the topic's producer).
    expect(Object.keys(message('rejectedGameResult').headers!.properties).sort()).toEqual(
      Object.values(DEAD_LETTER_HEADERS)
        .filter((h) => h !== DEAD_LETTER_HEADERS.consumer && h !== DEAD_LETTER_HEADERS.producer)
        .sort(),
    );
  });

  it('Given the examples of events, Then the contract’s validator accepts each as the type it shows', () => {
    for (const name of ['gameFinished', 'ladderEvent']) {
      for (const example of message(name).examples) {
        const outcome = parseEvent(bytes(example.payload));
        expect(outcome).toMatchObject({ ok: true });
      }
    }
    const [game] = message('gameFinished').examples;
    expect(parseEvent(bytes(game!.payload))).toMatchObject({ event: { type: 'game.finished' } });
  });

  it('Given the intake’s rejection example, Then the intake turns that value away with those very headers', () => {
    const admission = new GameResultAdmission(new Map(BUILT_IN_LADDERS.map((l) => [l.id, l])));
    for (const example of message('rejectedGameResult').examples) {
      const producer = { name: 'gomoku-eu-1', ladders: ['igame-gomoku'] };
      expect(admission.admit(bytes(example.payload), producer)).toMatchObject({
        admitted: false,
        rejection: {
          code: example.headers![DEAD_LETTER_HEADERS.reason],
          detail: example.headers![DEAD_LETTER_HEADERS.detail],
        },
      });
    }
  });

  it('Given the rating-changes examples, Then the leaderboard’s reader accepts each, and the header names its event', () => {
    for (const example of message('ratingChanges').examples) {
      const outcome = readRatingChanges(JSON.stringify(example.payload));
      expect(outcome).toMatchObject({ ok: true });
      expect(example.headers!['x-event-id']).toBe((example.payload as { eventId: string }).eventId);
    }
  });

  it('Given the dead-letter example, Then it is an event the schema accepts (rejected for what the ladder holds)', () => {
    for (const example of message('deadLetter').examples) {
      expect(parseEvent(bytes(example.payload))).toMatchObject({ ok: true });
      expect(REJECTION_CODES as readonly string[]).toContain(
        example.headers![DEAD_LETTER_HEADERS.reason],
      );
    }
  });
});
