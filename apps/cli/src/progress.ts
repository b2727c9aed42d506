import { Logger } from '@nestjs/common';
import cliProgress from 'cli-progress';
import { interactive } from './interactive.js';

/** How often a long run says how far it is when no one watches a bar. */
export const PROGRESS_LOG_MS = 10_000;

/** Where a long run says how far it is. */
export interface Progress {
  update(value: number): void;
  stop(): void;
}

/**
 * A progress bar at a terminal (stderr). Elsewhere no bar, so pipes and CI logs stay clean: a
 * run longer than PROGRESS_LOG_MS logs a JSON progress line that often instead.
 */
export function progressBar(
  total: number,
  unit: string,
  context: string,
  now: () => number = Date.now,
): Progress {
  if (total <= 0) return { update: () => undefined, stop: () => undefined };
  if (!interactive()) return progressLines(total, unit, new Logger(context), now);
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

function progressLines(total: number, unit: string, logger: Logger, now: () => number): Progress {
  let last = now();
  return {
    update: (done) => {
      if (now() - last < PROGRESS_LOG_MS) return;
      last = now();
      const percent = Math.floor((done / total) * 100);
      logger.log(`${percent}% (${done}/${total} ${unit})`, { done, total, unit, percent });
    },
    stop: () => undefined,
  };
}
