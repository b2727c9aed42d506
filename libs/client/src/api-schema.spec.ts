import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The client's types are generated from the committed OpenAPI document: when the document
// changes (npm run openapi), `npm run client` must be run too, or this fails.

const ROOT = process.cwd();

it('Given the committed OpenAPI document, When the client is generated anew, Then it is the committed api-schema.ts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'client-'));
  try {
    const out = join(dir, 'api-schema.ts');
    execFileSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'),
        join(ROOT, 'apps/leaderboard-service/openapi.json'),
        '-o',
        out,
      ],
      { stdio: 'pipe' },
    );
    const committed = readFileSync(join(ROOT, 'libs/client/src/api-schema.ts'), 'utf8');
    expect(readFileSync(out, 'utf8') === committed).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
