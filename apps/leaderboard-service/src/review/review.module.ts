import { Module } from '@nestjs/common';
import { IntegrityWatch } from './integrity-watch.js';
import { ReviewController } from './review.controller.js';
import { ReviewPool } from './review-pool.js';

/** Support staff's integrity review (ADR 35, 41): the routes behind a `review` token, and their workers. */
@Module({
  controllers: [ReviewController],
  providers: [IntegrityWatch, ReviewPool],
})
export class ReviewModule {}
