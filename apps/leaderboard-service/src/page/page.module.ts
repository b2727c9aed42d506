import { Module } from '@nestjs/common';
import { PageController } from './page.controller.js';

/** The leaderboard page (plain HTML and JS, Chart.js for the rating chart; no build step). */
@Module({ controllers: [PageController] })
export class PageModule {}
