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
