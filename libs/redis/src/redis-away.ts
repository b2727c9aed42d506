/** ioredis errors while the server is away (closed connection, retries exhausted, refused). */
const REDIS_AWAY =
  /Connection is closed|MaxRetriesPerRequest|ECONNREFUSED|Stream isn't writeable|ECONNRESET/;

/** Whether an error says Redis is away for now (worth retrying), not that a command is wrong. */
export const isRedisAway = (error: unknown): boolean =>
  error instanceof Error && REDIS_AWAY.test(`${error.name} ${error.message}`);
