#!/usr/bin/env node
// The `ranking` command: runs the built CLI (npm run build first).
//
// V8 grows its heap lazily to about twice what is live; a replay of a million events keeps a
// few hundred MB live, so the CLI runs with an old-space cap (RANKING_HEAP_MB, default 768) to
// keep its footprint honest. It re-executes itself once with the flag when it was not given.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../dist/apps/cli/src/ranking.js', import.meta.url));
if (!existsSync(main)) {
  process.stderr.write('ranking: the CLI is not built yet; run `npm run build` first\n');
  process.exit(1);
}
const capped = process.execArgv.some((a) => a.startsWith('--max-old-space-size'));
if (!capped) {
  const heap = process.env.RANKING_HEAP_MB ?? '768';
  const child = spawnSync(
    process.execPath,
    [`--max-old-space-size=${heap}`, ...process.execArgv, main, ...process.argv.slice(2)],
    {
      stdio: 'inherit',
    },
  );
  process.exit(child.status ?? 1);
}
await import(main);
