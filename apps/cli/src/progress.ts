import cliProgress from 'cli-progress';

/** A progress bar on a terminal (stderr), silent otherwise so pipes and CI logs stay clean. */
export interface Progress {
  update(value: number): void;
  stop(): void;
}

export function progressBar(total: number, unit: string): Progress {
  if (!process.stderr.isTTY || total <= 0)
    return { update: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: `{bar} {percentage}% | {value}/{total} ${unit} | {eta_formatted} left`,
      etaBuffer: 50,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return { update: (value) => bar.update(value), stop: () => bar.stop() };
}
