import { Module } from '@nestjs/common';
import type { Environment } from '@ranking/config';
import { closedOnShutdown } from '@ranking/operations';
import { IngestReceiptRepository, sqlOf } from '@ranking/persistence';
import { GameResultAdmission, type LadderConfig } from '@ranking/rating';
import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { API_DATA_SOURCE, ENVIRONMENT, KAFKA, LADDERS } from '../tokens.js';
import { EventsController } from './events.controller.js';
import { GamesController } from './games.controller.js';
import { IntakeWriter } from './intake-writer.js';
import { ReceiptRetention } from './receipt-retention.js';

/**
 * The game servers' way in over HTTP (ADR 34): POST /v1/games onto the intake topic, GET
 * /v1/events/:id, both for service tokens only (guardTokenRoutes). Its queries run on the API's
 * pool; the receipts' retention (ReceiptRetention) on the background one.
 */
@Module({
  controllers: [GamesController, EventsController],
  providers: [
    {
      provide: GameResultAdmission,
      inject: [LADDERS],
      useFactory: (ladders: ReadonlyMap<string, LadderConfig>) => new GameResultAdmission(ladders),
    },
    {
      provide: IntakeWriter,
      inject: [KAFKA, ENVIRONMENT],
      useFactory: async (kafka: Kafka, env: Environment) => {
        const writer = new IntakeWriter(kafka, env.KAFKA_TOPIC_PREFIX);
        await writer.connect();
        return writer;
      },
    },
    closedOnShutdown<IntakeWriter>(IntakeWriter, (writer) => writer.disconnect()),
    {
      provide: IngestReceiptRepository,
      inject: [API_DATA_SOURCE],
      useFactory: (db: DataSource) => new IngestReceiptRepository(sqlOf(db.manager)),
    },
    ReceiptRetention,
  ],
})
export class IngestionModule {}
