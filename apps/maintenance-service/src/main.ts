import 'reflect-metadata';
import { loadEnvironment, loadLadders } from '@ranking/config';
import { startHttpService } from '@ranking/operations';
import { MaintenanceServiceModule } from './maintenance-service.module.js';

/** The maintenance service: the period clock and the disconnect counters, decided as events. */
try {
  // Configuration first: a bad value stops the process with one line that names it.
  const env = loadEnvironment();
  await startHttpService({
    name: 'maintenance-service',
    env,
    module: MaintenanceServiceModule.forRoot(env, loadLadders(env)),
  });
} catch (error) {
  process.stderr.write(`maintenance-service: ${(error as Error).message}\n`);
  process.exit(1);
}
