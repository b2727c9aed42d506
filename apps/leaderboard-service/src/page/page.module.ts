import { Module } from '@nestjs/common';
import { PageController } from './page.controller.js';

/** The leaderboard page (plain HTML, JS and SVG; a new view is one more section in it). */
@Module({ controllers: [PageController] })
export class PageModule {}
