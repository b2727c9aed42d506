import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadEnvironment, loadLadders } from '@ranking/config';
import { RatingServiceModule } from './rating-service.module.js';

/** The rating service: the only writer of ladder state. */
try {
  // Configuration first: a bad value stops the process with one line that names it.
  const env = loadEnvironment();
  const app = await NestFactory.createApplicationContext(
    RatingServiceModule.forRoot(env, loadLadders(env)),
    {
      logger: ['log', 'warn', 'error'],
      abortOnError: false,
    },
  );
  app.enableShutdownHooks();
} catch (error) {
  process.stderr.write(`rating-service: ${(error as Error).message}\n`);
  process.exit(1);
}
