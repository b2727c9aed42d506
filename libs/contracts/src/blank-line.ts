const SPACE = 0x20;
const TAB = 0x09;
const CARRIAGE_RETURN = 0x0d;

const isBlank = (unit: number | undefined): boolean =>
  unit === SPACE || unit === TAB || unit === CARRIAGE_RETURN;

/**
 * RULES.md: a blank line of an NDJSON file (empty, or only spaces, tabs and carriage returns:
 * JSON whitespace, the line feed being the line's end) is skipped. Any other line is parsed,
 * so one of U+3000, U+00A0 or U+FEFF (which String#trim would also drop) is invalid-json.
 * Takes the line as text or as its bytes: these three are one byte each in UTF-8.
 */
export function isBlankLine(line: string | Uint8Array): boolean {
  if (typeof line === 'string') {
    for (let i = 0; i < line.length; i++) if (!isBlank(line.charCodeAt(i))) return false;
  } else {
    for (let i = 0; i < line.length; i++) if (!isBlank(line[i])) return false;
  }
  return true;
}
