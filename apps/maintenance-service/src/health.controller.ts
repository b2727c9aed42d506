import { Controller, Get, Inject } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { consumerProblem } from '@ranking/kafka';
import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { DisconnectConsumer } from './disconnect-consumer.js';
import { DATA_SOURCE, KAFKA } from './tokens.js';

const TIMEOUT_MS = 3000;

const within = <T>(work: Promise<T>, ms: number): Promise<T> =>
  Promise.race([
    work,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms).unref(),
    ),
  ]);

/**
 * `GET /health`: PostgreSQL and Kafka answer and the disconnect consumer is not stalled
 * (terminus: 200 when all are up, 503 naming the others).
 */
@Controller('health')
export class HealthController {
  constructor(
    @Inject(HealthCheckService) private readonly health: HealthCheckService,
    @Inject(HealthIndicatorService) private readonly indicators: HealthIndicatorService,
    @Inject(DATA_SOURCE) private readonly db: DataSource,
    @Inject(KAFKA) private readonly kafka: Kafka,
    @Inject(DisconnectConsumer) private readonly consumer: DisconnectConsumer,
  ) {}

  @Get()
  @HealthCheck()
  check() {
    return this.health.check([() => this.postgres(), () => this.broker(), () => this.consumed()]);
  }

  private consumed() {
    const session = this.indicators.check('consumer');
    const status = this.consumer.status();
    const problem = consumerProblem(status, Date.now());
    return problem === null
      ? session.up({ quarantined: status.quarantined })
      : session.down({ message: problem, quarantined: status.quarantined });
  }

  private async postgres() {
    const session = this.indicators.check('postgres');
    try {
      await within(this.db.query('SELECT 1'), TIMEOUT_MS);
      return session.up();
    } catch (error) {
      return session.down({ message: (error as Error).message });
    }
  }

  private async broker() {
    const session = this.indicators.check('kafka');
    const admin = this.kafka.admin();
    try {
      await within(admin.connect(), TIMEOUT_MS);
      const cluster = await within(admin.describeCluster(), TIMEOUT_MS);
      return session.up({ brokers: cluster.brokers.length });
    } catch (error) {
      return session.down({ message: (error as Error).message });
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }
}
