import { FlatReply } from './flat-reply.js';

const reply = (...fields: string[]) =>
  new FlatReply(
    Buffer.concat(fields.flatMap((f, i) => [...(i ? [Buffer.from([0xff])] : []), Buffer.from(f)])),
  );

describe('FlatReply', () => {
  it('reads fields in order, multi-byte text intact, empty fields as null', () => {
    const r = reply('棋圣', '', '42', '', '-1500', 'x|y');
    expect(r.text()).toBe('棋圣');
    expect(r.optionalText()).toBeNull();
    expect(r.integer()).toBe(42);
    expect(r.optionalInteger()).toBeNull();
    expect(r.integer()).toBe(-1500);
    expect(r.done).toBe(false);
    expect(r.text()).toBe('x|y');
    expect(r.done).toBe(true);
  });

  it('an empty last field is read, and reading past the end fails clearly', () => {
    const r = reply('a', '');
    expect(r.text()).toBe('a');
    expect(r.optionalText()).toBeNull();
    expect(() => r.text()).toThrow('fewer fields than expected');
  });

  it('a field that is not an integer where one is expected fails clearly', () => {
    expect(() => reply('1.5').integer()).toThrow('expected an integer, got "1.5"');
    expect(() => reply('').integer()).toThrow('expected an integer');
  });
});
