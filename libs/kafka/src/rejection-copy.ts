import { createHash } from 'node:crypto';
import { DEAD_LETTER_HEADERS, MAX_VALUE_BYTES } from '@ranking/contracts';
import type { IHeaders, Message } from 'kafkajs';

/**
 * The most of a key or value a rejection or dead letter carries: what the intake admits at most
 * (CONTRACT.md "Transport"). A game server reads back everything it sent that could be an
 * event; of a larger value, what it needs to tell which one it was (ADR 36).
 */
export const COPY_MAX_BYTES = MAX_VALUE_BYTES;

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

const asBuffer = (v: string | Buffer): Buffer => (typeof v === 'string' ? Buffer.from(v) : v);

/**
 * A message sent back as it came (key, value, `headers` added), except that a key or value
 * over COPY_MAX_BYTES is cut to its first COPY_MAX_BYTES bytes, its original length and
 * SHA-256 (hex) in headers: `x-original-value-bytes` and `x-original-value-sha256` (and
 * `-key-` for a key). So a rejection is never over ~130 KiB, whatever the intake's topic
 * accepted (a value up to the broker's limit there would exceed it here once the reasons are
 * added), and the game server still matches it to what it sent: the key, the bytes' hash, the
 * prefix (which holds the id of any event written id first). Pure.
 */
export function rejectionCopy(
  key: string | Buffer | null,
  value: string | Buffer | null,
  headers: IHeaders,
): Message {
  const out: IHeaders = { ...headers };
  const cut = (bytes: string | Buffer | null, which: 'key' | 'value'): Buffer | null => {
    if (bytes === null) return null;
    const buffer = asBuffer(bytes);
    if (buffer.length <= COPY_MAX_BYTES) return buffer;
    const names =
      which === 'value'
        ? [DEAD_LETTER_HEADERS.originalValueBytes, DEAD_LETTER_HEADERS.originalValueSha256]
        : [DEAD_LETTER_HEADERS.originalKeyBytes, DEAD_LETTER_HEADERS.originalKeySha256];
    out[names[0]!] = String(buffer.length);
    out[names[1]!] = sha256(buffer);
    return buffer.subarray(0, COPY_MAX_BYTES);
  };
  return { key: cut(key, 'key'), value: cut(value, 'value'), headers: out };
}
