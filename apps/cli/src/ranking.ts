import 'reflect-metadata';
import { CommandFactory } from 'nest-commander';
import { CliModule } from './cli.module.js';

try {
  await CommandFactory.run(CliModule, {
    logger: ['error'],
    errorHandler: (error) => {
      const code = (error as { code?: string }).code ?? '';
      // Commander reports --help and --version through the error path too.
      if (['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(code))
        process.exit(0);
      // Commander has already printed its own usage errors.
      if (error.name !== 'CommanderError') process.stderr.write(`ranking: ${error.message}\n`);
      process.exit(error.name === 'CommanderError' ? 2 : 1);
    },
    serviceErrorHandler: (error) => {
      process.stderr.write(`ranking: ${error.message}\n`);
      process.exit(1);
    },
  });
} catch (error) {
  process.stderr.write(`ranking: ${(error as Error).message}\n`);
  process.exit(1);
}
