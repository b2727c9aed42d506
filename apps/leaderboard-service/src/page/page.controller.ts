import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Controller, Get, Header, NotFoundException, Param, StreamableFile } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';

// The page's files stay in the source tree (dist/apps/leaderboard-service/src/page -> root).
const PUBLIC = new URL('../../../../../apps/leaderboard-service/public/', import.meta.url);

/**
 * A file of an installed package. The packages' `exports` hide their browser bundles from
 * require.resolve, so this walks up from the package's entry point to its root.
 */
export function packageFile(name: string, path: string): Buffer {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  while (!existsSync(join(dir, 'package.json')) || !dir.endsWith(name)) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package root for ${name}`);
    dir = up;
  }
  return readFileSync(join(dir, path));
}

const JS = 'text/javascript; charset=utf-8';

interface Asset {
  readonly type: string;
  readonly body: Buffer;
}

const page = (name: string, type = JS): [string, Asset] => [
  name,
  { type, body: readFileSync(new URL(name, PUBLIC)) },
];
const vendor = (file: string, pkg: string, path: string): [string, Asset] => [
  file,
  { type: JS, body: packageFile(pkg, path) },
];

/**
 * The page: its files read once at start-up and served from memory, as routes rather than a
 * static-files middleware (which would stat the disk before every API request). The chart's
 * libraries come from node_modules at their pinned versions: no CDN, same origin (CSP).
 */
@ApiExcludeController()
@Controller()
export class PageController {
  private readonly html = readFileSync(new URL('index.html', PUBLIC), 'utf8');
  /** The support staff's review page (ADR 35): its data come from the token-guarded routes. */
  private readonly reviewHtml = readFileSync(new URL('review.html', PUBLIC), 'utf8');
  private readonly files = new Map([
    page('app.js'),
    page('history.js'),
    page('rating-chart.js'),
    page('tournaments.js'),
    page('review.js'),
    page('style.css', 'text/css; charset=utf-8'),
  ]);
  private readonly vendor = new Map([
    vendor('luxon.min.js', 'luxon', 'build/global/luxon.min.js'),
    vendor('chart.umd.min.js', 'chart.js', 'dist/chart.umd.min.js'),
    vendor(
      'chartjs-adapter-luxon.umd.min.js',
      'chartjs-adapter-luxon',
      'dist/chartjs-adapter-luxon.umd.min.js',
    ),
    vendor('hammer.min.js', 'hammerjs', 'hammer.min.js'),
    vendor('chartjs-plugin-zoom.min.js', 'chartjs-plugin-zoom', 'dist/chartjs-plugin-zoom.min.js'),
  ]);

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  index(): string {
    return this.html;
  }

  @Get('review')
  @Header('Content-Type', 'text/html; charset=utf-8')
  review(): string {
    return this.reviewHtml;
  }

  @Get(':file')
  file(@Param('file') name: string): StreamableFile {
    return served(this.files, name);
  }

  /** Pinned versions: a browser may keep them a day. */
  @Get('vendor/:file')
  @Header('Cache-Control', 'public, max-age=86400')
  vendorFile(@Param('file') name: string): StreamableFile {
    return served(this.vendor, name);
  }
}

function served(files: ReadonlyMap<string, Asset>, name: string): StreamableFile {
  const asset = files.get(name);
  if (!asset) throw new NotFoundException(`no page file "${name}"`);
  return new StreamableFile(asset.body, { type: asset.type, length: asset.body.length });
}
