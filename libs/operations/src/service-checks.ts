import type { InjectionToken, Provider } from '@nestjs/common';
import type { ConsumerStatus } from '@ranking/kafka';
import type { Kafka } from 'kafkajs';
import { type HealthCheck, LIVENESS_CHECKS, READINESS_CHECKS } from './health-check.js';
import { consumerLiveness, consumerReadiness, kafkaCheck, postgresCheck } from './health-checks.js';

/** A check of one more dependency, built from what its token provides. */
export interface ExtraCheck {
  readonly inject: InjectionToken;
  readonly check: (dependency: never) => HealthCheck;
}

/**
 * The probes of a service built around one consumer: ready when PostgreSQL (if it keeps its
 * state there), any `extra` dependency, Kafka and the consumer are (the consumer at most
 * `maxLag` behind); live unless the consumer stopped for good.
 */
export function consumerServiceChecks(options: {
  readonly db?: InjectionToken;
  readonly kafka: InjectionToken;
  readonly consumer: InjectionToken;
  readonly maxLag: number;
  readonly extra?: readonly ExtraCheck[];
}): Provider[] {
  const extra = options.extra ?? [];
  return [
    {
      provide: READINESS_CHECKS,
      inject: [
        ...(options.db ? [options.db] : []),
        options.kafka,
        options.consumer,
        ...extra.map((e) => e.inject),
      ],
      useFactory: (...injected: unknown[]): HealthCheck[] => {
        const db = options.db
          ? (injected.shift() as { query(sql: string): Promise<unknown> })
          : null;
        const [kafka, consumer, ...dependencies] = injected as [
          Kafka,
          { status(): ConsumerStatus },
          ...never[],
        ];
        return [
          ...(db ? [postgresCheck(db)] : []),
          ...extra.map((e, i) => e.check(dependencies[i]!)),
          kafkaCheck(kafka),
          consumerReadiness('consumer', consumer, options.maxLag),
        ];
      },
    },
    {
      provide: LIVENESS_CHECKS,
      inject: [options.consumer],
      useFactory: (consumer: { status(): ConsumerStatus }) => [
        consumerLiveness('consumer', consumer),
      ],
    },
  ];
}
