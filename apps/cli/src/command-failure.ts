import { JsonLogger } from '@ranking/operations';
import type { LogFields } from './command-log.js';
import { interactive } from './interactive.js';

/**
 * Says why a command failed: `ranking: MESSAGE` at a terminal, otherwise one JSON error line
 * naming the command. Printed whatever LOG_LEVEL says (LOG_LEVEL may be the bad value), so a
 * non-zero exit always comes with its reason.
 */
export function reportFailure(message: string, fields: LogFields = {}): void {
  if (interactive()) process.stderr.write(`ranking: ${message}\n`);
  else
    new JsonLogger('error', 'ranking', 'stderr').error(message, {
      command: process.argv[2],
      ...fields,
    });
}

/** Reports the failure and exits with its code. */
export function exitWithFailure(message: string, exitCode: number): never {
  reportFailure(message, { exitCode });
  process.exit(exitCode);
}
