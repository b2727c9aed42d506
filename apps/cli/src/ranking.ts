import 'reflect-metadata';
import { loadEnvironment } from '@ranking/config';
import { JsonLogger } from '@ranking/operations';
import { CommandFactory } from 'nest-commander';
import { CliModule } from './cli.module.js';
import { cliVersion } from './cli-version.js';
import { exitWithFailure, reportFailure } from './command-failure.js';
import { interactive } from './interactive.js';

/** Commander's exits that are no failure. */
const NOT_FAILURES = ['commander.helpDisplayed', 'commander.help', 'commander.version'];

try {
  // LOG_LEVEL at once (each command checks the rest of the environment it reads).
  const { LOG_LEVEL } = loadEnvironment({ LOG_LEVEL: process.env.LOG_LEVEL });
  const terminal = interactive();
  const app = await CommandFactory.createWithoutRunning(CliModule, {
    // At a terminal Nest and kafkajs say only their errors, as before. Elsewhere they log
    // through the JsonLogger installed below, so Nest's start-up lines stay out.
    logger: terminal ? ['error'] : false,
    abortOnError: false,
    // `ranking --version` (and -V): the package's version and, where git knows it, the commit.
    version: cliVersion(),
    // Commander prints its usage errors itself, then exits (1 under a command, this handler
    // above one); off a terminal it prints them as the JSON error line.
    ...(terminal
      ? {}
      : {
          outputConfiguration: {
            outputError: (text: string) => reportFailure(text.trim().replace(/^error: /, '')),
          },
        }),
    errorHandler: (error) => {
      const code = (error as { code?: string }).code ?? '';
      // Commander reports --help and --version through the error path too.
      if (NOT_FAILURES.includes(code)) process.exit(0);
      if (error.name === 'CommanderError') process.exit(2);
      exitWithFailure(error.message, 1);
    },
    serviceErrorHandler: (error) => exitWithFailure(error.message, 1),
  });
  if (!terminal) app.useLogger(new JsonLogger(LOG_LEVEL, undefined, 'stderr'));
  try {
    await CommandFactory.runApplication(app);
  } finally {
    await app.close();
  }
} catch (error) {
  exitWithFailure((error as Error).message, 1);
}
