#!/usr/bin/env node
// The `ranking` command: runs the built CLI (npm run build first).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../dist/apps/cli/src/main.js', import.meta.url));
if (!existsSync(main)) {
  process.stderr.write('ranking: the CLI is not built yet; run `npm run build` first\n');
  process.exit(1);
}
await import(main);
