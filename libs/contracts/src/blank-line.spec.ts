import { isBlankLine } from './blank-line.js';

// RULES.md "Validation order": blank lines (empty, or only spaces, tabs and carriage returns)
// are skipped, and any other line is parsed.

describe('isBlankLine', () => {
  it.each(['', ' ', '\t', '\r', ' \t\r\r\t '])('%j is blank, as text and as bytes', (line) => {
    expect(isBlankLine(line)).toBe(true);
    expect(isBlankLine(Buffer.from(line))).toBe(true);
  });

  it.each([
    'x',
    ' {} ',
    '\n',
    '\v',
    '\f',
    '\u0000',
    '\u0085',
    '\u00a0',
    '\u1680',
    '\u2000',
    '\u2028',
    '\u2029',
    '\u202f',
    '\u205f',
    '\u3000',
    '\ufeff',
    ' \u3000 ',
  ])('%j is not blank (String#trim drops some of these), as text and as bytes', (line) => {
    expect(isBlankLine(line)).toBe(false);
    expect(isBlankLine(Buffer.from(line))).toBe(false);
  });
});
