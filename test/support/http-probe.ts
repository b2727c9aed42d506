/** An HTTP answer, its body parsed as JSON when it is JSON. */
export interface ProbeAnswer {
  readonly status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the services' JSON answers are read untyped
  readonly body: any;
  readonly text: string;
}

/** GET `url`, never throwing for an HTTP error status. */
export async function probe(url: string): Promise<ProbeAnswer> {
  const res = await fetch(url);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body, text };
}

/**
 * The value of one sample in a Prometheus exposition: `name` with exactly these labels (in
 * any order), undefined when there is no such sample.
 */
export function sample(
  exposition: string,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number | undefined {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(',');
  for (const line of exposition.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? '')
      .split(/,(?=[a-zA-Z_]\w*=")/)
      .filter((l) => l !== '')
      .sort()
      .join(',');
    if (have === wanted) return Number(match[3]);
  }
  return undefined;
}

/** The sum of every sample of `name` (all label sets), 0 when there is none. */
export function sampleSum(exposition: string, name: string): number {
  let sum = 0;
  for (const line of exposition.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{.*\})? (\S+)$/.exec(line);
    if (match && match[1] === name) sum += Number(match[2]);
  }
  return sum;
}
