/** An opaque cursor: the last row's member and score, so the next page starts after it. */
export interface PageCursor {
  readonly member: string;
  readonly score: string;
}

export const encodeCursor = (cursor: PageCursor): string =>
  Buffer.from(JSON.stringify([cursor.member, cursor.score])).toString('base64url');

/** The cursor, or null when the text is not one of ours. */
export function decodeCursor(text: string): PageCursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(value[1])
    )
      return { member: value[0], score: value[1] };
  } catch {
    // falls through: not a cursor
  }
  return null;
}
