import { Controller, Get, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  HealthCheck as TerminusCheck,
  HealthCheckService,
  HealthIndicatorService,
} from '@nestjs/terminus';
import { errorMessage } from '@ranking/kafka';
import {
  CHECK_TIMEOUT_MS,
  type HealthCheck,
  LIVENESS_CHECKS,
  READINESS_CHECKS,
  within,
} from './health-check.js';
import { ServiceLifecycle } from './service-lifecycle.js';

/**
 * The probes (terminus: 200 with each check's details, 503 naming the checks that failed).
 * `/health/live` fails only for what a restart cures, never because a dependency is away, so an
 * orchestrator does not restart the service during an outage; `/health/ready` checks the
 * dependencies and consumers, and fails from the moment a shutdown begins. `/health` is the
 * readiness answer under its older path.
 */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    @Inject(HealthCheckService) private readonly health: HealthCheckService,
    @Inject(HealthIndicatorService) private readonly indicators: HealthIndicatorService,
    @Inject(ServiceLifecycle) private readonly lifecycle: ServiceLifecycle,
    @Inject(READINESS_CHECKS) private readonly readiness: readonly HealthCheck[],
    @Inject(LIVENESS_CHECKS) private readonly liveness: readonly HealthCheck[],
  ) {}

  @Get('live')
  @TerminusCheck()
  live() {
    return this.health.check(this.liveness.map((c) => () => this.run(c)));
  }

  @Get('ready')
  @TerminusCheck()
  ready() {
    return this.health.check([
      () => this.serving(),
      ...this.readiness.map((c) => () => this.run(c)),
    ]);
  }

  @Get()
  @TerminusCheck()
  check() {
    return this.ready();
  }

  private serving() {
    const session = this.indicators.check('shutdown');
    return this.lifecycle.stopping
      ? session.down({ message: 'the service is shutting down' })
      : session.up();
  }

  private async run(check: HealthCheck) {
    const session = this.indicators.check(check.name);
    try {
      return session.up((await within(check.check(), CHECK_TIMEOUT_MS)) ?? {});
    } catch (error) {
      return session.down({ message: errorMessage(error) });
    }
  }
}
