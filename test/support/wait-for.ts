/** Polls until the check passes (returns a value other than undefined/false), or fails with the last error. */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  {
    timeout = 20_000,
    interval = 50,
    what = 'condition',
  }: { timeout?: number; interval?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + timeout;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeout} ms waiting for ${what}${lastError ? `: ${lastError instanceof Error ? lastError.message : JSON.stringify(lastError)}` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
