import { parseEvent } from './event-validator.js';

// CONTRACT.md "Transport": a value is one event as UTF-8 JSON. Bytes that are not UTF-8 are
// invalid-json (decoding them with replacement characters would alter ids), and so is a
// message without a value.

const game = {
  id: 'e-1',
  type: 'game.finished',
  ladder: 'qq-gomoku',
  gameId: 'g-1',
  finishedAt: '2026-11-29T13:05:00+08:00',
  moves: 41,
  players: [
    { id: '棋手😀', result: 'win' },
    { id: 'bob', result: 'loss' },
  ],
};
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The game's bytes with `bytes` put in place of the X in bob's id. */
function gameWith(bytes: readonly number[]): Uint8Array {
  const text = JSON.stringify({
    ...game,
    players: [game.players[0], { id: 'boXb', result: 'loss' }],
  });
  const [head, tail] = text.split('X') as [string, string];
  return new Uint8Array([...utf8(head), ...bytes, ...utf8(tail)]);
}

describe('parseEvent on bytes', () => {
  it('accepts UTF-8 bytes, in a Uint8Array or a Buffer, as it accepts their text', () => {
    const bytes = utf8(JSON.stringify(game));
    expect(parseEvent(bytes)).toEqual({ ok: true, event: game });
    expect(parseEvent(Buffer.from(bytes))).toEqual({ ok: true, event: game });
    // A slice of a larger buffer (as a line of a file is).
    const padded = Buffer.concat([Buffer.from('xx\n'), Buffer.from(bytes), Buffer.from('\nyy')]);
    expect(parseEvent(padded.subarray(3, 3 + bytes.length))).toEqual({ ok: true, event: game });
  });

  it('accepts two-, three- and four-byte characters', () => {
    for (const char of ['é', '棋', '😀', '\u{10ffff}']) {
      expect(parseEvent(gameWith([...utf8(char)]))).toMatchObject({ ok: true });
    }
  });

  it.each<[string, number[]]>([
    ['a lone continuation byte', [0x80]],
    ['0xFF', [0xff]],
    ['0xC0 (an overlong lead)', [0xc0, 0xaf]],
    ['an overlong three-byte slash', [0xe0, 0x80, 0xaf]],
    ['a surrogate encoded as three bytes (CESU-8 / WTF-8)', [0xed, 0xa0, 0x80]],
    ['a surrogate pair encoded as six bytes', [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]],
    ['a code point beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['a three-byte character cut short', [0xe6, 0xa3]],
    ['a Latin-1 é', [0xe9]],
  ])(
    'rejects %s in an id as invalid-json (a lenient decoder would accept it as U+FFFD)',
    (_what, bytes) => {
      expect(parseEvent(gameWith(bytes))).toEqual({
        ok: false,
        rejection: { code: 'invalid-json', detail: 'the value is not UTF-8' },
        id: null,
      });
    },
  );

  it('rejects a character cut short at the very end', () => {
    const bytes = utf8(JSON.stringify(game));
    expect(parseEvent(new Uint8Array([...bytes, 0xf0, 0x9f]))).toMatchObject({
      ok: false,
      rejection: { code: 'invalid-json', detail: 'the value is not UTF-8' },
    });
  });

  it('rejects a value that starts with a byte order mark: not JSON whitespace', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(JSON.stringify(game))]);
    expect(parseEvent(bom)).toMatchObject({
      ok: false,
      rejection: { code: 'invalid-json' },
      id: null,
    });
  });

  it.each<[string, Uint8Array | null]>([
    ['a message without a value (null)', null],
    ['an empty value', new Uint8Array()],
  ])('rejects %s as invalid-json, as the empty string', (_what, raw) => {
    expect(parseEvent(raw)).toEqual(parseEvent(''));
    expect(parseEvent(raw)).toMatchObject({ ok: false, rejection: { code: 'invalid-json' } });
  });
});
