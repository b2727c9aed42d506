import { createHash } from 'node:crypto';
import { COPY_MAX_BYTES, rejectionCopy } from './rejection-copy.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const reason = { 'x-reject-reason': 'invalid-event', 'x-reject-detail': 'too large' };

describe('rejectionCopy: what a game server reads back', () => {
  it('Given a key and value of at most 65,536 bytes, When copied, Then both come back unchanged with the reason', () => {
    const value = Buffer.alloc(COPY_MAX_BYTES, 'v');
    const copy = rejectionCopy(Buffer.from('k'), value, reason);
    expect(copy.key).toEqual(Buffer.from('k'));
    expect(copy.value).toEqual(value);
    expect(copy.headers).toEqual(reason);
  });

  it('Given a value up to the broker limit, When copied, Then its first 65,536 bytes come back with its length and SHA-256', () => {
    const value = Buffer.from(`{"id":"g-1",${'"pad":"'}${'a'.repeat(1_048_400)}"}`);
    const copy = rejectionCopy('one-game-server', value, reason);
    expect(copy.key).toEqual(Buffer.from('one-game-server'));
    expect(copy.value).toEqual(value.subarray(0, COPY_MAX_BYTES));
    expect(copy.headers).toEqual({
      ...reason,
      'x-original-value-bytes': String(value.length),
      'x-original-value-sha256': sha256(value),
    });
  });

  it('Given a null value and a key over 65,536 bytes, When copied, Then the value stays null and the key is cut the same way', () => {
    const key = Buffer.alloc(100_000, 'k');
    const copy = rejectionCopy(key, null, reason);
    expect(copy.value).toBeNull();
    expect(copy.key).toEqual(key.subarray(0, COPY_MAX_BYTES));
    expect(copy.headers).toMatchObject({
      'x-original-key-bytes': '100000',
      'x-original-key-sha256': sha256(key),
    });
    expect(rejectionCopy('k'.repeat(20_480), null, reason).key).toEqual(
      Buffer.from('k'.repeat(20_480)),
    );
  });
});
