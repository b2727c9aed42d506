import { type Rejection, reject } from './rejection-codes.js';

/** CONTRACT.md "Transport": a message value, or a line offline, over this many bytes is refused. */
export const MAX_VALUE_BYTES = 65_536;

const tooLarge = (bytes: number): Rejection =>
  reject('invalid-event', `the value is ${bytes} bytes, over the limit of ${MAX_VALUE_BYTES}`);

/**
 * `invalid-event` when a message value (a line's bytes, offline) is over MAX_VALUE_BYTES, else
 * null. Decided on the byte length alone, before the value is decoded or parsed (so its id is
 * never read: the rejection's id is null). Every reader of values checks it: `parseEvent` first
 * of all, and the intake. A blank line is skipped before it is judged (`isBlankLine`).
 */
export function oversizedValue(value: Uint8Array): Rejection | null {
  return value.byteLength > MAX_VALUE_BYTES ? tooLarge(value.byteLength) : null;
}

/**
 * The same for a value held as text (tests and tools that pass lines as strings): its UTF-8
 * length, counted without encoding it; an unpaired surrogate counts as the 3 bytes of the
 * replacement character that encoding it would write.
 */
export function oversizedText(text: string): Rejection | null {
  // Every UTF-16 unit is 1 to 3 bytes: most texts are decided by their length alone.
  if (text.length * 3 <= MAX_VALUE_BYTES) return null;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLow(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes > MAX_VALUE_BYTES ? tooLarge(bytes) : null;
}

const isLow = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;
