import { decodeCursor, encodeCursor } from './page-cursor.js';

describe('page cursor', () => {
  it('round-trips a member and its score', () => {
    const cursor = { member: 'gomoku 7/ü', score: '-1824.5' };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  });

  it.each([
    'garbage',
    '',
    Buffer.from('["a",1]').toString('base64url'),
    Buffer.from('["a","x"]').toString('base64url'),
  ])('rejects %s', (text) => {
    expect(decodeCursor(text)).toBeNull();
  });
});
