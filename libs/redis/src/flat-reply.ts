/**
 * Board scripts answer one bulk string of fields separated by the byte 0xFF, which UTF-8 never
 * contains, so no member name or row can hold it. Decoding one buffer is several times cheaper
 * than decoding a nested RESP array of the same fields (the player endpoint's largest cost).
 */
export const FIELD_SEPARATOR = 0xff;

/** Reads the fields of a flat reply in order. */
export class FlatReply {
  private position = 0;

  constructor(private readonly buffer: Buffer) {}

  /** The next field as text. */
  text(): string {
    const end = this.end();
    const value = this.buffer.toString('utf8', this.position, end);
    this.position = end + 1;
    return value;
  }

  /** The next field as text, null when empty (Lua's nil, sent as ''). */
  optionalText(): string | null {
    const value = this.text();
    return value === '' ? null : value;
  }

  /** The next field as an integer. */
  integer(): number {
    const value = this.text();
    const parsed = Number(value);
    if (value === '' || !Number.isInteger(parsed))
      throw new Error(`board store reply: expected an integer, got "${value}"`);
    return parsed;
  }

  /** The next field as an integer, null when empty. */
  optionalInteger(): number | null {
    const end = this.end();
    if (end === this.position) {
      this.position = end + 1;
      return null;
    }
    return this.integer();
  }

  get done(): boolean {
    return this.position >= this.buffer.length;
  }

  private end(): number {
    if (this.position > this.buffer.length)
      throw new Error('board store reply: fewer fields than expected');
    const end = this.buffer.indexOf(FIELD_SEPARATOR, this.position);
    return end === -1 ? this.buffer.length : end;
  }
}
