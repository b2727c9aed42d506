import { createRequire } from 'node:module';
import { pbkdf2 } from 'node:crypto';
import { promisify } from 'node:util';

/*
 * The wire format of AlterUserScramCredentials (API key 51) and DescribeUserScramCredentials
 * (API key 50), version 0 of both: kafkajs 2.2.4 has neither (see scram-credentials.ts), so
 * their bodies are written here with kafkajs's own Encoder and Decoder. Both are "flexible"
 * versions (KIP-482): compact strings, bytes and arrays (lengths as unsigned varints, plus
 * one), a tagged-fields section closing every structure, request header v2 and response
 * header v1. kafkajs writes request header v1 (api key, version, correlation id, client id),
 * which is v2 without its tagged fields; so each body starts with that header's empty
 * tagged-fields byte. kafkajs hands a response over after its correlation id, so each
 * response is read from response header v1's tagged fields on.
 */

const require = createRequire(import.meta.url);

/** kafkajs's protocol encoder (src/protocol/encoder.js), as far as used here. */
export interface KafkaEncoder {
  readonly buffer: Buffer;
  writeInt8(value: number): KafkaEncoder;
  writeInt16(value: number): KafkaEncoder;
  writeInt32(value: number): KafkaEncoder;
  writeUVarInt(value: number): KafkaEncoder;
  writeUVarIntString(value: string | null): KafkaEncoder;
  writeUVarIntBytes(value: Buffer | null): KafkaEncoder;
}

/** kafkajs's protocol decoder (src/protocol/decoder.js), as far as used here. */
interface KafkaDecoder {
  readInt8(): number;
  readInt16(): number;
  readInt32(): number;
  readUVarInt(): number;
  readUVarIntString(): string | null;
  readUVarIntArray<T>(reader: (decoder: KafkaDecoder) => T): T[] | null;
  forward(bytes: number): void;
  canReadBytes(bytes: number): boolean;
}

const Encoder = require('kafkajs/src/protocol/encoder.js') as new () => KafkaEncoder;
const Decoder = require('kafkajs/src/protocol/decoder.js') as new (buffer: Buffer) => KafkaDecoder;

export const ALTER_USER_SCRAM_CREDENTIALS = {
  apiKey: 51,
  apiVersion: 0,
  apiName: 'AlterUserScramCredentials',
} as const;
export const DESCRIBE_USER_SCRAM_CREDENTIALS = {
  apiKey: 50,
  apiVersion: 0,
  apiName: 'DescribeUserScramCredentials',
} as const;

/** The SCRAM mechanisms, by the protocol's ids (RFC 5802 with SHA-256, RFC 7677 with SHA-512). */
export const SCRAM_MECHANISMS = {
  1: 'SCRAM-SHA-256',
  2: 'SCRAM-SHA-512',
} as const;
export type ScramMechanism = (typeof SCRAM_MECHANISMS)[keyof typeof SCRAM_MECHANISMS];

/** The mechanism this system writes: the one its SASL listeners enable. */
export const SCRAM_SHA_512 = {
  id: 2,
  name: 'SCRAM-SHA-512',
  digest: 'sha512',
  length: 64,
} as const;

const pbkdf2Async = promisify(pbkdf2);

/**
 * SaltedPassword := Hi(password, salt, iterations) (RFC 5802 §2.2), where Hi is PBKDF2 with
 * HMAC-SHA-512 and one block of output (RFC 7677): what the broker keeps its StoredKey and
 * ServerKey from, and what a client recomputes from the salt the broker sends it.
 */
export async function scramSha512SaltedPassword(
  password: string,
  salt: Buffer,
  iterations: number,
): Promise<Buffer> {
  return pbkdf2Async(
    Buffer.from(password, 'utf8'),
    salt,
    iterations,
    SCRAM_SHA_512.length,
    SCRAM_SHA_512.digest,
  );
}

export interface ScramUpsertion {
  readonly user: string;
  readonly mechanism: number;
  readonly iterations: number;
  readonly salt: Buffer;
  readonly saltedPassword: Buffer;
}

export interface ScramDeletion {
  readonly user: string;
  readonly mechanism: number;
}

/** A compact array of structures, each closed by its (empty) tagged fields. */
function writeCompactArray<T>(
  encoder: KafkaEncoder,
  items: readonly T[],
  write: (item: T) => void,
): void {
  encoder.writeUVarInt(items.length + 1);
  for (const item of items) {
    write(item);
    encoder.writeUVarInt(0);
  }
}

/** The request header's tagged fields (none), which kafkajs's header v1 lacks. */
const flexibleBody = (): KafkaEncoder => new Encoder().writeUVarInt(0);

/** AlterUserScramCredentials v0's body: header tag byte, [deletions] [upsertions] TAG_BUFFER. */
export function encodeAlterScramCredentials(
  deletions: readonly ScramDeletion[],
  upsertions: readonly ScramUpsertion[],
): KafkaEncoder {
  const encoder = flexibleBody();
  writeCompactArray(encoder, deletions, (d) => {
    encoder.writeUVarIntString(d.user).writeInt8(d.mechanism);
  });
  writeCompactArray(encoder, upsertions, (u) => {
    encoder
      .writeUVarIntString(u.user)
      .writeInt8(u.mechanism)
      .writeInt32(u.iterations)
      .writeUVarIntBytes(u.salt)
      .writeUVarIntBytes(u.saltedPassword);
  });
  return encoder.writeUVarInt(0);
}

/**
 * DescribeUserScramCredentials v0's body; no users asks for every user. The protocol also
 * takes a null array for that, but Kafka 3.9 then fails to answer a principal it refuses (a
 * NullPointerException building the error response): the request would hang until it timed
 * out.
 */
export function encodeDescribeScramCredentials(users: readonly string[]): KafkaEncoder {
  const encoder = flexibleBody();
  writeCompactArray(encoder, users, (user) => {
    encoder.writeUVarIntString(user);
  });
  return encoder.writeUVarInt(0);
}

/**
 * Skips a tagged-fields section: a count, then per field its tag, its size and its bytes.
 * (kafkajs's Decoder.readTaggedFields reads the size as a compact length, one byte short.)
 */
function skipTaggedFields(decoder: KafkaDecoder): void {
  const count = decoder.readUVarInt();
  for (let i = 0; i < count; i++) {
    decoder.readUVarInt();
    const size = decoder.readUVarInt();
    if (!decoder.canReadBytes(size)) throw new Error('tagged field runs past the response');
    decoder.forward(size);
  }
}

/** A compact array of structures, each closed by tagged fields; null reads as empty. */
const readCompactArray = <T>(decoder: KafkaDecoder, read: (d: KafkaDecoder) => T): T[] =>
  decoder.readUVarIntArray((d) => {
    const item = read(d);
    skipTaggedFields(d);
    return item;
  }) ?? [];

/** The broker's answer for one user: error code 0 is success. */
export interface ScramUserResult {
  readonly user: string;
  readonly errorCode: number;
  readonly errorMessage: string | null;
}

export interface AlterScramCredentialsResponse {
  readonly throttleTimeMs: number;
  readonly results: readonly ScramUserResult[];
}

/** AlterUserScramCredentials v0's response, from response header v1's tagged fields on. */
export function decodeAlterScramCredentials(payload: Buffer): AlterScramCredentialsResponse {
  const decoder = new Decoder(payload);
  skipTaggedFields(decoder);
  const throttleTimeMs = decoder.readInt32();
  const results = readCompactArray(decoder, (d) => ({
    user: d.readUVarIntString() ?? '',
    errorCode: d.readInt16(),
    errorMessage: d.readUVarIntString(),
  }));
  skipTaggedFields(decoder);
  return { throttleTimeMs, results };
}

export interface ScramCredentialInfo {
  /** The mechanism's name, or `mechanism-N` for an id this code does not know. */
  readonly mechanism: ScramMechanism | `mechanism-${number}`;
  readonly iterations: number;
}

export interface DescribedScramUser extends ScramUserResult {
  readonly credentials: readonly ScramCredentialInfo[];
}

export interface DescribeScramCredentialsResponse {
  readonly throttleTimeMs: number;
  readonly errorCode: number;
  readonly errorMessage: string | null;
  readonly results: readonly DescribedScramUser[];
}

const mechanismName = (id: number): ScramCredentialInfo['mechanism'] =>
  SCRAM_MECHANISMS[id as keyof typeof SCRAM_MECHANISMS] ?? `mechanism-${id}`;

/** DescribeUserScramCredentials v0's response, from response header v1's tagged fields on. */
export function decodeDescribeScramCredentials(payload: Buffer): DescribeScramCredentialsResponse {
  const decoder = new Decoder(payload);
  skipTaggedFields(decoder);
  const throttleTimeMs = decoder.readInt32();
  const errorCode = decoder.readInt16();
  const errorMessage = decoder.readUVarIntString();
  const results = readCompactArray(decoder, (d) => ({
    user: d.readUVarIntString() ?? '',
    errorCode: d.readInt16(),
    errorMessage: d.readUVarIntString(),
    credentials: readCompactArray(d, (c) => ({
      mechanism: mechanismName(c.readInt8()),
      iterations: c.readInt32(),
    })),
  }));
  skipTaggedFields(decoder);
  return { throttleTimeMs, errorCode, errorMessage, results };
}
