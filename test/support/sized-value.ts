/**
 * An event as JSON of exactly `bytes` UTF-8 bytes: padded in an extra field (the schema allows
 * unknown fields) with ASCII, or with CJK (3 bytes a character, the last 0–2 bytes ASCII).
 * CONTRACT.md "Transport": 65,536 bytes is the largest value read.
 */
export function sizedValue(
  event: Record<string, unknown>,
  bytes: number,
  pad: 'ascii' | 'cjk',
): string {
  const room = bytes - Buffer.byteLength(JSON.stringify({ ...event, pad: '' }));
  if (room < 0) throw new Error(`the event alone is over ${bytes} bytes`);
  const text =
    pad === 'ascii' ? 'a'.repeat(room) : '棋'.repeat(Math.floor(room / 3)) + 'a'.repeat(room % 3);
  const value = JSON.stringify({ ...event, pad: text });
  if (Buffer.byteLength(value) !== bytes) throw new Error('sizedValue: miscounted');
  return value;
}

/** The broker's `message.max.bytes` by default (Kafka 3.9), which `ranking setup` leaves as it is. */
export const BROKER_MESSAGE_MAX_BYTES = 1_048_588;

/** Bytes of a zigzag varint (Kafka's record fields). */
const varintBytes = (n: number): number => {
  let zigzag = n >= 0 ? n * 2 : -n * 2 - 1;
  let bytes = 1;
  while (zigzag >= 128) {
    zigzag = Math.floor(zigzag / 128);
    bytes++;
  }
  return bytes;
};

/**
 * The largest value the broker takes alone in a record batch under a key of `keyBytes` (null:
 * no key), without headers: the batch's 61 bytes of framing, the record's length, attributes,
 * timestamp and offset deltas, key, value and header count. Measured: 1,048,509 with a 7-byte
 * key, 1,048,516 with none.
 */
export function largestValueBytes(keyBytes: number | null): number {
  const key = keyBytes === null ? varintBytes(-1) : varintBytes(keyBytes) + keyBytes;
  for (let value = BROKER_MESSAGE_MAX_BYTES; ; value--) {
    const body = 3 + key + varintBytes(value) + value + 1;
    if (61 + varintBytes(body) + body <= BROKER_MESSAGE_MAX_BYTES) return value;
  }
}
