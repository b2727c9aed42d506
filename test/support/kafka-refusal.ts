/* eslint-disable @typescript-eslint/no-explicit-any -- kafkajs errors are walked untyped */

/**
 * An error and its causes, as one line: kafkajs wraps a broker's refusal (`type`) or the
 * socket's error in retry errors.
 */
export function describeKafkaError(error: unknown): string {
  const parts: string[] = [];
  for (let e = error as any; e && parts.length < 6; e = e.cause ?? e.originalError)
    parts.push(`${e.type ?? ''} ${e.name ?? ''}: ${e.message ?? String(e)}`);
  return parts.join(' <- ');
}

/** What a refused call failed with (it must fail). */
export async function refusal(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
  } catch (error) {
    return describeKafkaError(error);
  }
  throw new Error('the call succeeded');
}
