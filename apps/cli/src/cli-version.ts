import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package root: the nearest folder above this module with the `ranking` package.json (the
 * built module lies deeper than the source, so it is looked for rather than assumed).
 */
function packageRoot(from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (
      existsSync(file) &&
      (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'ranking'
    )
      return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The commit checked out at `root`, or undefined where there is no git or no repository (an image). */
export function gitCommit(root: string): string | undefined {
  try {
    const out = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    }).trim();
    return /^[0-9a-f]{7,40}$/.test(out) ? out : undefined;
  } catch {
    return undefined;
  }
}

/** What `ranking --version` prints: the package's version, and the commit when git knows it. */
export function cliVersion(moduleUrl: string = import.meta.url): string {
  const root = packageRoot(dirname(fileURLToPath(moduleUrl)));
  if (root === undefined) return 'unknown';
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    version: string;
  };
  const commit = gitCommit(root);
  return commit === undefined ? version : `${version} (${commit})`;
}
