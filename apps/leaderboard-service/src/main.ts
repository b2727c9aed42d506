import 'reflect-metadata';
import { ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { loadEnvironment, loadLadders } from '@ranking/config';
import { LeaderboardServiceModule } from './leaderboard-service.module.js';
import { Metrics } from './ops/metrics.js';
import { UnavailableFilter } from './unavailable.filter.js';

interface Req {
  method: string;
  route?: { path?: string };
}
interface Res {
  statusCode: number;
  on(event: 'finish', listener: () => void): void;
}

/** The leaderboard service: boards in Redis, the HTTP API, its OpenAPI document and the page. */
try {
  const env = loadEnvironment();
  const app = await NestFactory.create<NestExpressApplication>(
    LeaderboardServiceModule.forRoot(env, loadLadders(env)),
    { logger: ['log', 'warn', 'error'], abortOnError: false },
  );
  const metrics = app.get(Metrics);
  app.use((req: Req, res: Res, next: () => void) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const route = req.route?.path ?? 'other';
      metrics.latency.observe(
        { method: req.method, route },
        Number(process.hrtime.bigint() - started) / 1e9,
      );
      metrics.requests.inc({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  });
  app.useGlobalPipes(
    new ValidationPipe({ transform: true, whitelist: true, forbidNonWhitelisted: true }),
  );
  app.useGlobalFilters(new UnavailableFilter(app.getHttpAdapter()));
  app.disable('x-powered-by');
  app.set('etag', false);
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('ranking leaderboards')
      .setDescription('Daily 06:00 boards, live ranks and rating histories of the ladders')
      .setVersion('1')
      .build(),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/json' });
  app.enableShutdownHooks();
  await app.listen(env.HTTP_PORT, '127.0.0.1');
  process.stdout.write(`leaderboard-service: listening on http://127.0.0.1:${env.HTTP_PORT}/\n`);
} catch (error) {
  process.stderr.write(`leaderboard-service: ${(error as Error).message}\n`);
  process.exit(1);
}
