import 'reflect-metadata';
import { loadEnvironment, loadLadders } from '@ranking/config';
import { startHttpService } from '@ranking/operations';
import { RatingServiceModule } from './rating-service.module.js';

/** The rating service: the only writer of ladder state; HTTP for its probes and metrics. */
try {
  // Configuration first: a bad value stops the process with one line that names it.
  const env = loadEnvironment();
  await startHttpService({
    name: 'rating-service',
    env,
    module: RatingServiceModule.forRoot(env, loadLadders(env)),
  });
} catch (error) {
  process.stderr.write(`rating-service: ${(error as Error).message}\n`);
  process.exit(1);
}
