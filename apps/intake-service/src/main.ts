import 'reflect-metadata';
import { loadEnvironment, loadLadders } from '@ranking/config';
import { startHttpService } from '@ranking/operations';
import { IntakeServiceModule } from './intake-service.module.js';

/** The intake: game servers' results onto the ladder log, or back to them with a reason. */
try {
  // Configuration first: a bad value stops the process with one line that names it.
  const env = loadEnvironment();
  await startHttpService({
    name: 'intake-service',
    env,
    module: IntakeServiceModule.forRoot(env, loadLadders(env)),
  });
} catch (error) {
  process.stderr.write(`intake-service: ${(error as Error).message}\n`);
  process.exit(1);
}
