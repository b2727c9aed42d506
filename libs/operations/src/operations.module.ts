import { Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller.js';
import { MetricsController } from './metrics.controller.js';
import { ServiceLifecycle } from './service-lifecycle.js';
import { ServiceMetrics } from './service-metrics.js';

/**
 * What the probes and metrics need, for the whole service: terminus, ServiceMetrics and
 * ServiceLifecycle (whether it is shutting down).
 */
@Global()
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  providers: [ServiceMetrics, ServiceLifecycle],
  exports: [TerminusModule, ServiceMetrics, ServiceLifecycle],
})
export class OperationsModule {}

/**
 * `/health`, `/health/live`, `/health/ready` and `/metrics`: a service lists these among its
 * controllers and provides READINESS_CHECKS and LIVENESS_CHECKS (arrays of HealthCheck).
 */
export const OPERATIONS_CONTROLLERS = [HealthController, MetricsController];
