/** Joins text chunks (an export's pages) into one string. */
export async function collectText(
  chunks: AsyncIterable<string> | Iterable<string>,
): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}
