/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- the API's JSON answers are read untyped */
import { randomBytes } from 'node:crypto';
import { generateEvents } from '@ranking/generator';
import { ladderRegistry } from '@ranking/rating';
import { waitFor } from '@ranking/testing';
import { launchChromium } from './headless-chromium.js';
import { LeaderboardWorld } from './leaderboard-world.js';

// Functions passed to waitForFunction run in the browser: they reach the page through globalThis
// (this project compiles without DOM types).
/** The page end to end: real data through both services, drawn by a real browser. */
describe('leaderboard page (headless Chromium)', () => {
  const ladders = ladderRegistry();
  const world = new LeaderboardWorld(ladders);
  const lines = [
    ...generateEvents({
      seed: 71,
      events: 2000,
      closes: true,
      days: 3,
      playersPerLadder: 40,
      start: `2026-11-0${1 + (randomBytes(1)[0]! % 5)}T00:00:00+08:00`,
    }),
  ];
  let rating: ReturnType<LeaderboardWorld['service']>;

  beforeAll(async () => {
    await world.setUp();
    rating = world.service();
    rating.start();
    await world.startLeaderboard();
    await world.produce(lines);
    await waitFor(() => world.drained(), { timeout: 120_000, interval: 250, what: 'the drain' });
    await waitFor(async () => (await world.get('/ladders/qq-xiangqi/leaderboard')).status === 200, {
      timeout: 60_000,
      interval: 250,
      what: 'a daily board',
    });
  }, 240_000);

  afterAll(async () => {
    await world.tearDownAll(rating);
  });

  it('given real data, when a ladder is picked, then the board shows its rows, and a click on a player draws their rating history', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${world.port}/?ladder=qq-xiangqi`);
      await page.waitForSelector('#board tbody tr');
      const api = (await world.get('/ladders/qq-xiangqi/leaderboard?limit=25')).body;
      const cells = await page.$$eval('#board tbody tr', (rows) =>
        rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)),
      );
      expect(cells).toHaveLength(api.rows.length);
      expect(cells[0]).toEqual([
        String(api.rows[0].rank),
        api.rows[0].player,
        String(api.rows[0].rating),
        api.rows[0].title,
        String(api.rows[0].wins),
        String(api.rows[0].losses),
        String(api.rows[0].draws),
      ]);
      // The board can be paged.
      if (api.nextCursor) {
        await page.click('#next');
        await page.waitForFunction(
          (first) =>
            (globalThis as any).document.querySelector('#board tbody tr td:nth-child(2)')
              ?.textContent !== first,
          api.rows[0].player,
        );
      }
      await page.click('#first');
      await page.waitForFunction(
        (first) =>
          (globalThis as any).document.querySelector('#board tbody tr td:nth-child(2)')
            ?.textContent === first,
        api.rows[0].player,
      );
      // Another ladder.
      await page.selectOption('#ladder', 'igame-gomoku');
      await page.waitForFunction(() =>
        (globalThis as any).document
          .querySelector('#board-info')
          ?.textContent?.includes('board of'),
      );
      await page.selectOption('#ladder', 'qq-xiangqi');
      await page.waitForFunction(
        (first) =>
          (globalThis as any).document.querySelector('#board tbody tr td:nth-child(2)')
            ?.textContent === first,
        api.rows[0].player,
      );
      await page.click('#board tbody tr:first-child');
      await page.waitForSelector('#chart polyline');
      const history = (
        await world.get(`/ladders/qq-xiangqi/players/${api.rows[0].player}/history?limit=200`)
      ).body;
      const points = await page.$eval('#chart polyline', (p) =>
        p.getAttribute('points')!.trim().split(/\s+/),
      );
      expect(points).toHaveLength(history.entries.length + 1);
      expect(points.length).toBeGreaterThan(2);
      expect(await page.textContent('#profile-name')).toBe(api.rows[0].player);
      await page.screenshot({ path: '/tmp/leaderboard-page.png', fullPage: true });
    } finally {
      await browser.close();
    }
  });
});
