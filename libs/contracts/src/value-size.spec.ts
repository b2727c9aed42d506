import { sizedValue } from '@ranking/testing';
import fc from 'fast-check';
import { parseEvent } from './event-validator.js';
import { MAX_VALUE_BYTES, oversizedText, oversizedValue } from './value-size.js';

// CONTRACT.md "Transport": a message value (a line, offline) over 65,536 bytes is invalid-event,
// its id null, decided before it is decoded or parsed.

const game = {
  id: 'sized-1',
  type: 'game.finished',
  ladder: 'qq-gomoku',
  gameId: 'g-sized-1',
  finishedAt: '2026-11-29T13:05:00+08:00',
  moves: 41,
  players: [
    { id: 'alice', result: 'win' },
    { id: 'bob', result: 'loss' },
  ],
};

describe('the size of a value', () => {
  it('is limited to 65,536 bytes', () => {
    expect(MAX_VALUE_BYTES).toBe(65_536);
  });

  describe.each(['ascii', 'cjk'] as const)('padded with %s', (pad) => {
    const fits = sizedValue(game, 65_536, pad);
    const over = sizedValue(game, 65_537, pad);

    it('Given a value of 65,536 bytes, When it is parsed as bytes or as text, Then it is read', () => {
      expect(parseEvent(Buffer.from(fits))).toMatchObject({ ok: true, event: { id: 'sized-1' } });
      expect(parseEvent(fits)).toMatchObject({ ok: true, event: { id: 'sized-1' } });
      expect(oversizedValue(Buffer.from(fits))).toBeNull();
      expect(oversizedText(fits)).toBeNull();
    });

    it('Given a value of 65,537 bytes, When it is parsed as bytes or as text, Then it is invalid-event with a null id', () => {
      const expected = {
        ok: false,
        rejection: {
          code: 'invalid-event',
          detail: 'the value is 65537 bytes, over the limit of 65536',
        },
        id: null,
      };
      expect(parseEvent(Buffer.from(over))).toEqual(expected);
      expect(parseEvent(new Uint8Array(Buffer.from(over)))).toEqual(expected);
      expect(parseEvent(over)).toEqual(expected);
    });
  });

  it('Given 65,537 bytes that are not UTF-8, or not JSON, When parsed, Then the size decides first', () => {
    const notUtf8 = Buffer.alloc(65_537, 0xff);
    expect(parseEvent(notUtf8)).toMatchObject({ rejection: { code: 'invalid-event' }, id: null });
    expect(parseEvent(Buffer.alloc(65_536, 0xff))).toMatchObject({
      rejection: { code: 'invalid-json', detail: 'the value is not UTF-8' },
    });
    expect(parseEvent('x'.repeat(65_537))).toMatchObject({ rejection: { code: 'invalid-event' } });
    expect(parseEvent('x'.repeat(65_536))).toMatchObject({ rejection: { code: 'invalid-json' } });
  });

  it('counts a text as its UTF-8 bytes: astral characters, lone surrogates (3 bytes, as encoded) and all', () => {
    const unit = fc.constantFrom('a', 'é', '棋', '😀', '\ud800', '\udc00', '\u0000');
    fc.assert(
      fc.property(
        fc.array(unit, { minLength: 0, maxLength: 40 }),
        fc.constantFrom('a', '棋', '😀'),
        fc.integer({ min: 16_000, max: 66_000 }),
        (ends, fill, times) => {
          const text = fill.repeat(times) + ends.join('');
          const bytes = Buffer.byteLength(text, 'utf8');
          expect(oversizedText(text) !== null).toBe(bytes > MAX_VALUE_BYTES);
          expect(oversizedValue(Buffer.from(text, 'utf8')) !== null).toBe(bytes > MAX_VALUE_BYTES);
        },
      ),
      { numRuns: 300 },
    );
  });
});
