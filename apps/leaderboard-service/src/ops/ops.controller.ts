import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { consumerProblem } from '@ranking/kafka';
import { BoardStore } from '@ranking/redis';
import type { DataSource } from 'typeorm';
import { RatingChangesConsumer } from '../boards/rating-changes-consumer.js';
import { DATA_SOURCE } from '../tokens.js';
import { Metrics } from './metrics.js';

/** The part of Fastify's reply these handlers use. */
interface Reply {
  status(code: number): Reply;
  type(contentType: string): Reply;
  send(body: unknown): void;
}

const within = <T>(ms: number, work: Promise<T>): Promise<T> =>
  Promise.race([
    work,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms)),
  ]);

@ApiExcludeController()
@Controller()
export class OpsController {
  constructor(
    @Inject(DATA_SOURCE) private readonly db: DataSource,
    private readonly store: BoardStore,
    private readonly consumer: RatingChangesConsumer,
    private readonly metrics: Metrics,
  ) {}

  /** Kafka, PostgreSQL and Redis: 200 when all answer, 503 naming the ones that do not. */
  @Get('health')
  async health(@Res() res: Reply): Promise<void> {
    const check = async (work: () => Promise<unknown>) => {
      try {
        await within(1_000, work());
        return { ok: true };
      } catch (error) {
        return { ok: false, error: (error as Error).message };
      }
    };
    const checks = {
      postgres: await check(() => this.db.query('SELECT 1')),
      redis: await check(async () => {
        if (!(await this.store.isReady())) throw new Error('boards are being rebuilt');
      }),
      kafka: await check(() => {
        const problem = consumerProblem(this.consumer.status(), Date.now());
        return problem === null ? Promise.resolve() : Promise.reject(new Error(problem));
      }),
    };
    const ok = Object.values(checks).every((c) => c.ok);
    res.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', checks });
  }

  @Get('metrics')
  async prometheus(@Res() res: Reply): Promise<void> {
    res.type(this.metrics.registry.contentType).send(await this.metrics.registry.metrics());
  }

  /** A bare endpoint: the ceiling the benchmark compares the API with. */
  @Get('ping')
  ping(): string {
    return 'pong';
  }
}
