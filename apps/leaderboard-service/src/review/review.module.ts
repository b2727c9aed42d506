import { Module } from '@nestjs/common';
import { IntegrityWatch } from './integrity-watch.js';
import { ReviewController } from './review.controller.js';

/** Support staff's integrity review (ADR 35): the routes behind a `review` token. */
@Module({
  controllers: [ReviewController],
  providers: [IntegrityWatch],
})
export class ReviewModule {}
