import { TapeReader, TapeWriter } from './event-tape.js';

/** Writes the values in batches of `per`, hands each over as a worker would, and reads them back. */
function roundTrip(values: unknown[], per: number): unknown[] {
  const writer = new TapeWriter();
  const reader = new TapeReader();
  const read: unknown[] = [];
  for (let i = 0; i < values.length; i += per) {
    for (const value of values.slice(i, i + per)) writer.write(value);
    const tape = structuredClone(writer.take());
    reader.receive(tape);
    reader.start(tape);
    while (!reader.done) read.push(reader.value());
  }
  return read;
}

describe('event tape (the parse worker hands over what it parsed)', () => {
  const texts = [
    '{"id":"a","type":"game.finished","ladder":"qq-gomoku","players":[{"id":"ann","result":"win"},{"id":"bob","result":"loss"}]}',
    '{"id":"b","type":"game.finished","ladder":"qq-gomoku","players":[{"id":"bob","result":"win"},{"id":"ann","result":"loss"}]}',
    '{"players":[],"id":"c","ladder":"qq-gomoku","type":"game.finished"}',
    '{"n":[0,-0,1.5,-2147483648,2147483647,2147483648,1e300,-1e-300,9007199254740993]}',
    '{"t":true,"f":false,"z":null,"e":{},"a":[],"nested":[[1,[2,{"x":[]}]],{"y":{"z":{}}}]}',
    '{"s":"ünïcødé \\ud83d\\ude00 \\u0000 \\\\ \\"","id":"\\ud800 lone","note":""}',
    '{"id":"a long id past thirteen, ünïcødé \\ud83d\\ude00 and \\udc00 lone","gameId":"latin-1 only: ÿé long enough"}',
    '{"id":"short ü","gameId":"and a long latin-1 one: ÿé","finishedAt":"2026-11-01T00:00:36+08:00"}',
    '{"__proto__":{"polluted":true},"constructor":1,"2":"two","1":"one","toString":"x"}',
    '{"a":1,"a":2,"b":3}',
    '"just a string"',
    '[1,"two",{"three":3}]',
    '17',
    'null',
  ];
  const values = texts.map((t) => JSON.parse(t) as unknown);

  it.each([1, 3, 100])(
    'rebuilds the values JSON.parse gave, keys in order, at %i a batch',
    (per) => {
      const read = roundTrip(values, per);
      expect(read.map((v) => JSON.stringify(v))).toEqual(
        texts.map((t) => JSON.stringify(JSON.parse(t))),
      );
      expect(read).toEqual(values);
      const numbers = texts.findIndex((t) => t.startsWith('{"n"'));
      expect(Object.is((read[numbers] as { n: number[] }).n[1], -0)).toBe(true);
      const protoAt = texts.findIndex((t) => t.startsWith('{"__proto__"'));
      const proto = read[protoAt] as Record<string, unknown>;
      expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
      expect(Object.keys(proto)).toEqual(Object.keys(values[protoAt] as object));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );

  it('names a repeated string once, and still reads ever new keys and strings', () => {
    // Past the caps on shapes and key names: 5000 key lists, 5000 keys.
    const many = Array.from({ length: 5000 }, (_, i) => ({ [`k${i}`]: `v${i % 7}`, id: `e${i}` }));
    expect(roundTrip(many, 1000)).toEqual(many);
    const writer = new TapeWriter();
    for (let i = 0; i < 100; i++) writer.write({ type: 'same', id: `x${i}` });
    const tape = writer.take();
    // The type once in the dictionary; the ids there until they are too many, then inline.
    expect(tape.newStrings).toEqual(['same', ...Array.from({ length: 64 }, (_, i) => `x${i}`)]);
    expect(tape.text).toBe(Array.from({ length: 36 }, (_, i) => `x${i + 64}`).join(''));
    expect(tape.newShapes).toEqual([['type', 'id']]);
  });
});
