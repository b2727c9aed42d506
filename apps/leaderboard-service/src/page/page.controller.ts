import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';

// The page's files stay in the source tree (dist/apps/leaderboard-service/src/page -> root).
const PUBLIC = new URL('../../../../../apps/leaderboard-service/public/', import.meta.url);
const file = (name: string) => readFileSync(new URL(name, PUBLIC), 'utf8');

/**
 * A file of an installed package. The packages' `exports` hide their browser bundles from
 * require.resolve, so this walks up from the package's entry point to its root.
 */
export function packageFile(name: string, path: string): string {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  while (!existsSync(join(dir, 'package.json')) || !dir.endsWith(name)) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package root for ${name}`);
    dir = up;
  }
  return readFileSync(join(dir, path), 'utf8');
}

const JS = 'text/javascript; charset=utf-8';

/**
 * The page: the small files read once at start-up and served from memory, as routes rather
 * than a static-files middleware (which would stat the disk before every API request). The
 * chart's libraries come from node_modules at their pinned versions: no CDN, same origin (CSP).
 */
@ApiExcludeController()
@Controller()
export class PageController {
  private readonly html = file('index.html');
  private readonly script = file('app.js');
  private readonly sentences = file('history.js');
  private readonly chart = file('rating-chart.js');
  private readonly style = file('style.css');
  private readonly tournaments = file('tournaments.js');
  private readonly vendor = {
    luxon: packageFile('luxon', 'build/global/luxon.min.js'),
    chartJs: packageFile('chart.js', 'dist/chart.umd.min.js'),
    adapter: packageFile('chartjs-adapter-luxon', 'dist/chartjs-adapter-luxon.umd.min.js'),
    hammer: packageFile('hammerjs', 'hammer.min.js'),
    zoom: packageFile('chartjs-plugin-zoom', 'dist/chartjs-plugin-zoom.min.js'),
  };

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  index(): string {
    return this.html;
  }

  @Get('app.js')
  @Header('Content-Type', JS)
  app(): string {
    return this.script;
  }

  @Get('history.js')
  @Header('Content-Type', JS)
  history(): string {
    return this.sentences;
  }

  @Get('rating-chart.js')
  @Header('Content-Type', JS)
  ratingChart(): string {
    return this.chart;
  }

  @Get('tournaments.js')
  @Header('Content-Type', JS)
  tournamentsView(): string {
    return this.tournaments;
  }

  @Get('style.css')
  @Header('Content-Type', 'text/css; charset=utf-8')
  css(): string {
    return this.style;
  }

  @Get('vendor/luxon.min.js')
  @Header('Content-Type', JS)
  @Header('Cache-Control', 'public, max-age=86400')
  luxon(): string {
    return this.vendor.luxon;
  }

  @Get('vendor/chart.umd.min.js')
  @Header('Content-Type', JS)
  @Header('Cache-Control', 'public, max-age=86400')
  chartJs(): string {
    return this.vendor.chartJs;
  }

  @Get('vendor/chartjs-adapter-luxon.umd.min.js')
  @Header('Content-Type', JS)
  @Header('Cache-Control', 'public, max-age=86400')
  adapter(): string {
    return this.vendor.adapter;
  }

  @Get('vendor/hammer.min.js')
  @Header('Content-Type', JS)
  @Header('Cache-Control', 'public, max-age=86400')
  hammer(): string {
    return this.vendor.hammer;
  }

  @Get('vendor/chartjs-plugin-zoom.min.js')
  @Header('Content-Type', JS)
  @Header('Cache-Control', 'public, max-age=86400')
  zoom(): string {
    return this.vendor.zoom;
  }
}
