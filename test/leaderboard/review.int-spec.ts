/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- the routes' JSON answers and the page's DOM are read untyped */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { plantWinTrading } from '@ranking/generator';
import { issueServiceToken, type TokenScope } from '@ranking/ingestion';
import type { IntegrityReport } from '@ranking/integrity';
import { ServiceTokenRepository } from '@ranking/persistence';
import { ladderRegistry } from '@ranking/rating';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { storeLog } from '../cli/stored-log.js';
import { launchChromium } from './headless-chromium.js';
import { LeaderboardWorld } from './leaderboard-world.js';

const run = promisify(execFile);
const LADDER = 'igame-gomoku';

/**
 * The support staff's integrity review (ADR 35) on the built leaderboard service and the real
 * PostgreSQL: routes behind a `review` token only, each ladder's suspects refreshed as games
 * arrive and equal to `ranking integrity --from-store`, a pair's games, the annulment's dry run
 * equal to `ranking annul --dry-run`; and the page in Chromium.
 */
describe('integrity review: the routes behind a review token, and the page', () => {
  const ladders = ladderRegistry();
  const world = new LeaderboardWorld(ladders);
  const stream = plantWinTrading({ seed: 42, events: 16_000 });
  const lines = [...stream.lines()];
  const first = Math.floor(lines.length * 0.6);
  const tokens: Record<string, string> = {};
  let dir: string;

  const issue = async (service: string, scopes: TokenScope[], ladderIds = [LADDER]) => {
    const issued = issueServiceToken();
    await new ServiceTokenRepository(world.sql).issue({
      tokenId: issued.tokenId,
      service,
      ladders: ladderIds,
      scopes,
      digest: issued.digest,
      expiresAt: null,
      issuedBy: 'review-suite',
    });
    return issued.token;
  };
  const get = async (path: string, token?: string) => {
    const res = await fetch(`http://127.0.0.1:${world.port}${path}`, {
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const ranking = async (...args: string[]) =>
    (
      await run(process.execPath, ['bin/ranking.js', ...args], {
        env: { ...process.env, DATABASE_URL: world.databaseUrl, LOG_LEVEL: 'warn' },
        maxBuffer: 1 << 26,
      })
    ).stdout;
  const storeReport = async (): Promise<IntegrityReport> => {
    const out = join(dir, `report-${Date.now()}.json`);
    await ranking('integrity', '--from-store', '--ladder', LADDER, '--out', out);
    return JSON.parse(await readFile(out, 'utf8')) as IntegrityReport;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'review-'));
    await world.setUp();
    await storeLog(world.db, ladders, lines.slice(0, first), 500);
    tokens.review = await issue('support', ['review']);
    tokens.ingest = await issue('gomoku-server', ['ingest']);
    tokens.otherLadder = await issue('support-xiangqi', ['review'], ['qq-xiangqi']);
    await world.startLeaderboard();
  }, 240_000);

  afterAll(async () => {
    await world.tearDownAll();
    await rm(dir, { recursive: true, force: true });
  });

  it('Given no token, an ingest token, or a review token of other ladders, Then the review routes refuse (401, 403, 403); and a review token may not send games', async () => {
    const path = `/review/api/ladders/${LADDER}/suspects`;
    const none = await get(path);
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ status: 401, requestId: expect.any(String) });
    const ingest = await get(path, tokens.ingest);
    expect(ingest.status).toBe(403);
    expect(ingest.body.detail).toContain('not review');
    const other = await get(path, tokens.otherLadder);
    expect(other.status).toBe(403);
    expect(other.body.detail).toContain('may review qq-xiangqi');
    const games = await fetch(`http://127.0.0.1:${world.port}/v1/games`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.review}`, 'content-type': 'application/json' },
      body: lines[0]!,
    });
    expect(games.status).toBe(403);
    expect((await get('/review/api/whoami', tokens.review)).body).toMatchObject({
      service: 'support',
      ladders: [LADDER],
    });
  });

  it('Given the store, Then the suspects equal ranking integrity --from-store, and after more games are stored the refresh reads on and equals it again', async () => {
    const before = await get(`/review/api/ladders/${LADDER}/suspects`, tokens.review);
    expect(before.status).toBe(200);
    const cli = await storeReport();
    expect(before.body.suspects).toEqual(cli.ladders[LADDER]!.suspects);
    expect(before.body.games).toBe(first);

    await storeLog(world.db, ladders, lines.slice(first), 500, first);
    const after = await get(`/review/api/ladders/${LADDER}/suspects`, tokens.review);
    expect(after.body.games).toBe(lines.length);
    expect(BigInt(after.body.through as string)).toBeGreaterThan(
      BigInt(before.body.through as string),
    );
    expect(after.body.suspects).toEqual((await storeReport()).ladders[LADDER]!.suspects);
    expect((after.body.suspects as unknown[]).length).toBeGreaterThan(0);
  });

  it('Given a suspect, Then its pair’s games come in time order, and the dry run equals ranking annul --dry-run', async () => {
    const { body } = await get(`/review/api/ladders/${LADDER}/suspects`, tokens.review);
    const [suspect] = body.suspects as {
      players: [string, string];
      since: string;
      games: number;
    }[];
    const pair = await get(
      `/review/api/ladders/${LADDER}/pairs/${suspect!.players[0]}/${suspect!.players[1]}`,
      tokens.review,
    );
    const times = (pair.body.games as { finishedAt: string }[]).map((g) =>
      Date.parse(g.finishedAt),
    );
    expect(times.length).toBeGreaterThanOrEqual(suspect!.games);
    expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).toBe(true);

    const query = new URLSearchParams({ player: suspect!.players[0], since: suspect!.since });
    const preview = await get(
      `/review/api/ladders/${LADDER}/dry-run?${query.toString()}`,
      tokens.review,
    );
    expect(preview.status).toBe(200);
    const cli = JSON.parse(
      await ranking(
        'annul',
        '--dry-run',
        '--ladder',
        LADDER,
        '--player',
        suspect!.players[0],
        '--since',
        suspect!.since,
        '--note',
        'test',
      ),
    ) as { moved: number; changes: unknown[] };
    expect(preview.body.moved).toBe(cli.moved);
    expect(preview.body.changes).toEqual(cli.changes);
    expect(
      (await get(`/review/api/ladders/${LADDER}/dry-run?player=x`, tokens.review)).status,
    ).toBe(400);
    const tooLong = new URLSearchParams({ player: 'x'.repeat(200), since: suspect!.since });
    const refused = await get(
      `/review/api/ladders/${LADDER}/dry-run?${tooLong.toString()}`,
      tokens.review,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain('not an annulment to preview');
  });

  describe('the page in Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser.close();
    });

    it('Given the review token, Then the queue lists the suspects with their evidence, a suspect opens its timeline, and the dry run shows who would move', async () => {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`http://127.0.0.1:${world.port}/review`);
      await page.fill('#token', tokens.review!);
      await page.click('#load');
      await page.waitForSelector('#queue tbody tr.suspect');
      const { body } = await get(`/review/api/ladders/${LADDER}/suspects`, tokens.review);
      const rows = await page.$$eval('#queue tbody tr.suspect', (trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent)),
      );
      expect(rows).toEqual((body.suspects as { players: string[] }[]).map((s) => s.players));
      expect(await page.textContent('#queue tbody tr.suspect li')).toMatch(
        / of \d+ won against an expected /,
      );

      await page.click('#queue tbody tr.suspect button');
      await page.waitForSelector('#pair:not([hidden])');
      expect(await page.textContent('#pair-title')).toContain(
        (body.suspects as { players: string[] }[])[0]!.players[0],
      );
      const drawn = await page.$eval(
        '#timeline',
        (canvas) => (canvas as unknown as { width: number }).width > 0,
      );
      expect(drawn).toBe(true);
      await page.click('#dry-run');
      await page.waitForSelector('#effect tbody tr.moved', { timeout: 60_000 });
      expect(await page.textContent('#effect-caption')).toMatch(/would move \d+ players/);
      expect(errors).toEqual([]);
      await page.close();
    });

    it('Given a wrong token, Then the page says why', async () => {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${world.port}/review`);
      await page.fill('#token', tokens.ingest!);
      await page.click('#load');
      await page.waitForSelector('#error:not([hidden])');
      expect(await page.textContent('#error')).toMatch(/^403: /);
      await page.close();
    });
  });
});
