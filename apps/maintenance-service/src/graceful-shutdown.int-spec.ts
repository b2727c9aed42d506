import type { INestApplication } from '@nestjs/common';
import { HealthController, ServiceLifecycle } from '@ranking/operations';
import { ladderRegistry } from '@ranking/rating';
import { MaintenanceScenario, waitFor } from '@ranking/testing';
import { MaintenanceServiceModule } from './maintenance-service.module.js';

const ladders = ladderRegistry();

/** SIGTERM, as an orchestrator stops a service during a rollout (real Kafka and PostgreSQL). */
describe('a clean stop of the maintenance service', () => {
  describe('in process', () => {
    const scenario = new MaintenanceScenario(ladders);
    let app: INestApplication | null = null;
    beforeAll(() => scenario.setUp());
    afterAll(async () => {
      await app?.close();
      await scenario.tearDown();
    });

    it('when the shutdown begins, then readiness fails at once, naming it, while liveness holds', async () => {
      app = await scenario.startInProcess((env) => MaintenanceServiceModule.forRoot(env, ladders));
      const health = app.get(HealthController);
      await waitFor(() => health.ready().then(() => true), {
        timeout: 30_000,
        what: 'the service to be ready',
      });
      const lifecycle = app.get(ServiceLifecycle);
      const closing = app.close();
      await waitFor(() => lifecycle.stopping, { timeout: 5_000, what: 'the shutdown to begin' });
      await expect(health.ready()).rejects.toMatchObject({
        response: { status: 'error', error: { shutdown: { status: 'down' } } },
      });
      await expect(health.live()).resolves.toMatchObject({ status: 'ok' });
      await closing;
      app = null;
    });
  });
});
