import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadEnvironment, loadLadders } from '@ranking/config';
import { configureApi, openApiDocument } from './conventions/openapi-document.js';
import { LeaderboardServiceModule } from './leaderboard-service.module.js';

/**
 * Writes the service's OpenAPI document to the file named (`npm run openapi` writes the
 * committed apps/leaderboard-service/openapi.json). Nest's preview mode: the module graph is
 * scanned, no provider is made, so no database, broker or Redis is needed.
 */
const out = process.argv[2];
if (out === undefined) {
  process.stderr.write('usage: openapi.main.js FILE\n');
  process.exit(2);
}
const env = loadEnvironment();
const app = await NestFactory.create<NestFastifyApplication>(
  LeaderboardServiceModule.forRoot(env, loadLadders(env)),
  new FastifyAdapter(),
  { preview: true, logger: false },
);
configureApi(app);
writeFileSync(out, `${JSON.stringify(openApiDocument(app), null, 2)}\n`);
await app.close();
