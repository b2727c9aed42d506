#!/usr/bin/env node
// The `ranking` command: runs the built CLI (npm run build first).
//
// V8 grows its heap lazily to about twice what is live; a replay of a million events keeps a
// few hundred MB live, so the CLI runs with an old-space cap (RANKING_HEAP_MB, default 2048) to
// keep its footprint bounded. A cap near the live heap costs time instead: at 768 MB a rebuild
// with 130 MB live ran eight full collections instead of three, 10-15 % of its re-fold. It
// re-executes itself once with the flag when it was not given.
//
// A fold keeps every player's newest state and every game's record: most of what it allocates
// lives on past the young generation's next scavenge, which copies it. With V8's default 16 MB
// semi-spaces a replay or rebuild spent about a third of its CPU in scavenges; 64 MB semi-spaces
// (RANKING_SEMI_SPACE_MB) scavenge a quarter as often, for at most about 128 MB more memory.
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
  const heap = process.env.RANKING_HEAP_MB ?? '2048';
  const semiSpace = process.env.RANKING_SEMI_SPACE_MB ?? '64';
  const child = spawnSync(
    process.execPath,
    [
      `--max-old-space-size=${heap}`,
      `--max-semi-space-size=${semiSpace}`,
      ...process.execArgv,
      main,
      ...process.argv.slice(2),
    ],
    {
      stdio: 'inherit',
    },
  );
  process.exit(child.status ?? 1);
}
await import(main);
