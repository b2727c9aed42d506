import type { InjectionToken, Provider } from '@nestjs/common';
import type { ConsumerStatus } from '@ranking/kafka';
import type { Kafka } from 'kafkajs';
import { type HealthCheck, LIVENESS_CHECKS, READINESS_CHECKS } from './health-check.js';
import { consumerLiveness, consumerReadiness, kafkaCheck, postgresCheck } from './health-checks.js';
import { ServiceMetrics } from './service-metrics.js';
import { sharedCheck } from './shared-check.js';

/** A check of one more dependency, built from what its token provides. */
export interface ExtraCheck {
  readonly inject: InjectionToken;
  readonly check: (dependency: never) => HealthCheck;
}

/**
 * The probes of a service built around one consumer: ready when PostgreSQL (if it keeps its
 * state there), any `extra` dependency, Kafka and the consumer are (the consumer at most
 * `maxLag` behind), each readiness check computed at most once a second and shared by the
 * probes meanwhile (`sharedCheck`, counted in `ranking_readiness_checks_total`); live unless
 * the consumer stopped for good.
 */
export function consumerServiceChecks(options: {
  readonly db?: InjectionToken;
  readonly kafka: InjectionToken;
  readonly consumer: InjectionToken;
  readonly maxLag: number;
  readonly extra?: readonly ExtraCheck[];
}): Provider[] {
  // PostgreSQL first, then the service's own dependencies: the order the answers list them.
  const extra: readonly ExtraCheck[] = [
    ...(options.db ? [{ inject: options.db, check: postgresCheck as ExtraCheck['check'] }] : []),
    ...(options.extra ?? []),
  ];
  return [
    {
      provide: READINESS_CHECKS,
      inject: [ServiceMetrics, options.kafka, options.consumer, ...extra.map((e) => e.inject)],
      useFactory: (
        metrics: ServiceMetrics,
        kafka: Kafka,
        consumer: { status(): ConsumerStatus },
        ...dependencies: never[]
      ): HealthCheck[] =>
        [
          ...extra.map((e, i) => e.check(dependencies[i]!)),
          kafkaCheck(kafka),
          consumerReadiness('consumer', consumer, options.maxLag),
        ].map((check) =>
          // Probes are not rate limited and the Kafka check opens an admin connection: each
          // check runs at most once a second, its answer shared meanwhile.
          sharedCheck(check, (name) => metrics.readinessChecks.inc({ check: name })),
        ),
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
