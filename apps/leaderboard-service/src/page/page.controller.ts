import { readFileSync } from 'node:fs';
import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';

// The page's files stay in the source tree (dist/apps/leaderboard-service/src/page -> root).
const PUBLIC = new URL('../../../../../apps/leaderboard-service/public/', import.meta.url);
const file = (name: string) => readFileSync(new URL(name, PUBLIC), 'utf8');

/**
 * The page: the small files read once at start-up and served from memory, as routes rather
 * than a static-files middleware (which would stat the disk before every API request).
 */
@ApiExcludeController()
@Controller()
export class PageController {
  private readonly html = file('index.html');
  private readonly script = file('app.js');
  private readonly style = file('style.css');
  private readonly tournaments = file('tournaments.js');

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  index(): string {
    return this.html;
  }

  @Get('app.js')
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  app(): string {
    return this.script;
  }

  @Get('tournaments.js')
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  tournamentsView(): string {
    return this.tournaments;
  }

  @Get('style.css')
  @Header('Content-Type', 'text/css; charset=utf-8')
  css(): string {
    return this.style;
  }
}
