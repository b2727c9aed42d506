/**
 * The HTTP paths every service answers for orchestrators and Prometheus; the deployment
 * manifests are checked against these.
 */
export const PROBE_PATHS = {
  /** 200 unless the process is wedged; never fails because a dependency is away. */
  live: '/health/live',
  /** 200 when every dependency answers and consumers are caught up, else 503 naming the checks. */
  ready: '/health/ready',
  /** The readiness answer, kept under its older path. */
  health: '/health',
  /** Prometheus exposition. */
  metrics: '/metrics',
} as const;

/** Which variable holds each service's HTTP port, and its default. */
export const SERVICE_PORTS = {
  'leaderboard-service': { variable: 'HTTP_PORT', port: 3000 },
  'maintenance-service': { variable: 'MAINTENANCE_HTTP_PORT', port: 3001 },
  'rating-service': { variable: 'RATING_HTTP_PORT', port: 3002 },
  'intake-service': { variable: 'INTAKE_HTTP_PORT', port: 3003 },
} as const;

export type ServiceName = keyof typeof SERVICE_PORTS;
