import { isAcceptedRequestId, requestIdOf } from './request-id.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it("keeps a caller's id of 1 to 128 safe characters", () => {
    for (const id of [
      'a',
      '3b0f1c2e-8d4a-4f6b-9c71-2a5e0d9b7f13',
      'trace.1:2~x_y',
      'x'.repeat(128),
    ]) {
      expect(isAcceptedRequestId(id)).toBe(true);
      expect(requestIdOf(id)).toBe(id);
    }
  });

  it('replaces anything else by a new UUID: too long, empty, spaces, quotes, line breaks, two headers', () => {
    for (const header of [
      'x'.repeat(129),
      '',
      'a b',
      '"a"',
      'a\nb',
      'a,b',
      '<x>',
      ['a', 'b'],
      undefined,
    ]) {
      const id = requestIdOf(header);
      expect(id).toMatch(UUID);
    }
    expect(requestIdOf(undefined)).not.toBe(requestIdOf(undefined));
  });
});
