import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadEnvironment, loadLadders } from '@ranking/config';
import { MaintenanceServiceModule } from './maintenance-service.module.js';

/** The maintenance service: the period clock and the disconnect counters, decided as events. */
try {
  // Configuration first: a bad value stops the process with one line that names it.
  const env = loadEnvironment();
  const app = await NestFactory.create(MaintenanceServiceModule.forRoot(env, loadLadders(env)), {
    logger: ['log', 'warn', 'error'],
    abortOnError: false,
  });
  app.enableShutdownHooks();
  await app.listen(env.MAINTENANCE_HTTP_PORT);
} catch (error) {
  process.stderr.write(`maintenance-service: ${(error as Error).message}\n`);
  process.exit(1);
}
