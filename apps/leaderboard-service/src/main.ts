import 'reflect-metadata';
import { SwaggerModule } from '@nestjs/swagger';
import { loadEnvironment, loadLadders } from '@ranking/config';
import { startHttpService } from '@ranking/operations';
import { ServiceTokenRepository } from '@ranking/persistence';
import { protectApi } from './api-protection.js';
import { markUnversionedAliases, versionedUrl } from './conventions/api-version.js';
import { noCacheByDefault } from './conventions/cache-validation.js';
import { invalidRequest } from './conventions/invalid-request.js';
import { configureApi, openApiDocument } from './conventions/openapi-document.js';
import { ProblemFilter } from './conventions/problem.filter.js';
import { limitSubmissionBodies } from './ingestion/ingestion-limits.js';
import { ServiceTokenHook } from './ingestion/service-token-hook.js';
import { guardTokenRoutes } from './ingestion/token-routes.js';
import { LeaderboardServiceModule } from './leaderboard-service.module.js';
import { MAX_ID_UNITS } from './players/player-id-query.js';
import { QueryValidationPipe } from './query-validation.pipe.js';
import { REDIS } from './tokens.js';

/**
 * The leaderboard service: boards in Redis, the HTTP API under /v1 (ADR 30), its OpenAPI
 * document and the page. Fastify, as every service: about half Express's CPU per request
 * (ADR 10).
 */
try {
  const env = loadEnvironment();
  await startHttpService({
    name: 'leaderboard-service',
    env,
    module: LeaderboardServiceModule.forRoot(env, loadLadders(env)),
    http: {
      // A player id is up to 128 code points: up to 256 UTF-16 units decoded (Fastify's default
      // of 100 answered 414 to longer ones).
      maxParamLength: MAX_ID_UNITS,
      // The unversioned paths of before are routed as their /v1 paths, for one release.
      rewriteUrl: versionedUrl,
    },
    configure: async (app) => {
      limitSubmissionBodies(app, env);
      const { perToken } = await protectApi(app, env, app.get(REDIS));
      // The token-holders' routes authenticate before their body is read (ADR 42).
      guardTokenRoutes(app, new ServiceTokenHook(app.get(ServiceTokenRepository)), perToken);
      markUnversionedAliases(app);
      noCacheByDefault(app);
      app.useGlobalPipes(
        new QueryValidationPipe({
          transform: true,
          whitelist: true,
          forbidNonWhitelisted: true,
          exceptionFactory: invalidRequest,
        }),
      );
      app.useGlobalFilters(new ProblemFilter());
      configureApi(app);
      SwaggerModule.setup('docs', app, openApiDocument(app), { jsonDocumentUrl: 'docs/json' });
    },
  });
} catch (error) {
  process.stderr.write(`leaderboard-service: ${(error as Error).message}\n`);
  process.exit(1);
}
