import 'reflect-metadata';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { loadEnvironment, loadLadders } from '@ranking/config';
import { startHttpService } from '@ranking/operations';
import { protectApi } from './api-protection.js';
import { LeaderboardServiceModule } from './leaderboard-service.module.js';
import { MAX_ID_UNITS } from './players/player-id-query.js';
import { QueryValidationPipe } from './query-validation.pipe.js';
import { REDIS } from './tokens.js';
import { UnavailableFilter } from './unavailable.filter.js';

/**
 * The leaderboard service: boards in Redis, the HTTP API, its OpenAPI document and the page.
 * Fastify, as every service: about half Express's CPU per request (ADR 10).
 */
try {
  const env = loadEnvironment();
  await startHttpService({
    name: 'leaderboard-service',
    env,
    module: LeaderboardServiceModule.forRoot(env, loadLadders(env)),
    // A player id is up to 128 code points: up to 256 UTF-16 units decoded (Fastify's default
    // of 100 answered 414 to longer ones).
    http: { maxParamLength: MAX_ID_UNITS },
    configure: async (app) => {
      await protectApi(app, env, app.get(REDIS));
      app.useGlobalPipes(
        new QueryValidationPipe({ transform: true, whitelist: true, forbidNonWhitelisted: true }),
      );
      app.useGlobalFilters(new UnavailableFilter(app.getHttpAdapter()));
      const document = SwaggerModule.createDocument(
        app,
        new DocumentBuilder()
          .setTitle('ranking leaderboards')
          .setDescription('Daily 06:00 boards, live ranks and rating histories of the ladders')
          .setVersion('1')
          .build(),
      );
      SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/json' });
    },
  });
} catch (error) {
  process.stderr.write(`leaderboard-service: ${(error as Error).message}\n`);
  process.exit(1);
}
