import { Module } from '@nestjs/common';
import { BoardBuilder } from './board-builder.js';
import { BoardHeads } from './board-heads.js';
import { BoardKeeper } from './board-keeper.js';
import { RatingChangesConsumer } from './rating-changes-consumer.js';

/** Loads and updates the boards in Redis: from the rating changes, and from PostgreSQL when lost. */
@Module({
  providers: [BoardBuilder, BoardHeads, BoardKeeper, RatingChangesConsumer],
  exports: [BoardHeads, BoardKeeper, RatingChangesConsumer],
})
export class BoardsModule {}
