import { Module } from '@nestjs/common';
import { ServiceTokenGuard } from '../ingestion/service-token.guard.js';
import { IntegrityWatch } from './integrity-watch.js';
import { ReviewController } from './review.controller.js';

/** Support staff's integrity review (ADR 35): the routes behind a `review` token. */
@Module({
  controllers: [ReviewController],
  providers: [IntegrityWatch, ServiceTokenGuard],
})
export class ReviewModule {}
