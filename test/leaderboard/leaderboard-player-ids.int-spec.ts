/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- the API's JSON answers and the page's objects are read untyped */
import { isPlayerId } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import { ladderRegistry } from '@ranking/rating';
import { type ServiceProcess, waitFor } from '@ranking/testing';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './headless-chromium.js';
import { LeaderboardWorld } from './leaderboard-world.js';

const LADDER = 'qq-gomoku';

/** Ids the contract allows that a path, a URL or a page could mangle (issue 28, item 5). */
const IDS: Record<string, string> = {
  '128 ASCII characters (past Fastify’s default 100)': `long-${'x'.repeat(123)}`,
  'URL and HTML specials': `a/b?c#d%2F%e<f>g"h'i&j=k+l\\m`,
  'dot-dot': '..',
  dot: '.',
  'right-to-left marks': '\u200Fשלום\u200E-\u202Bمرحبا\u202C',
  'emoji sequences': '👩‍👩‍👧‍👦 🏳️‍🌈 👍🏽',
  '128 CJK characters': Array.from({ length: 128 }, (_, i) =>
    String.fromCodePoint(0x4e00 + i),
  ).join(''),
  '128 astral characters (256 UTF-16 units)': '😀'.repeat(128),
};

/** Dot segments: no HTTP client sends them as a path segment, so they are asked by query. */
const DOTS = new Set(['.', '..']);

/**
 * Every player id the contract allows reaches its profile, history and search, through the API
 * (by path and by query) and through the page in headless Chromium, against the built services
 * and the real PostgreSQL, Kafka and Redis.
 */
describe('player ids the contract allows, everywhere', () => {
  const world = new LeaderboardWorld(ladderRegistry());
  let rating: ServiceProcess;
  let browser: Browser;

  const path = (id: string) => `/ladders/${LADDER}/players/${encodeURIComponent(id)}`;
  const byQuery = (route: string, id: string, extra: Record<string, string> = {}) =>
    `/ladders/${LADDER}/${route}?${new URLSearchParams({ id, ...extra }).toString()}`;

  beforeAll(async () => {
    for (const id of Object.values(IDS)) expect(isPlayerId(id)).toBe(true);
    await world.setUp();
    rating = world.service();
    rating.start();
    await world.startLeaderboard();
    const model = JSON.parse(
      [...generateEvents({ seed: 28, events: 300, days: 1, playersPerLadder: 10 })].find(
        (t) => t.includes(`"${LADDER}"`) && t.includes('game.finished'),
      )!,
    );
    // Each id wins one game against an ordinary opponent.
    const games = Object.values(IDS).map((id, i) =>
      JSON.stringify({
        ...model,
        id: `ids-${i}`,
        gameId: `ids-game-${i}`,
        finishedAt: new Date(Date.parse(model.finishedAt) + i * 60_000).toISOString(),
        players: [
          { ...model.players[0], id, result: 'win' },
          { ...model.players[1], id: `opponent-${i}`, result: 'loss' },
        ],
      }),
    );
    await world.produce(games);
    await waitFor(
      async () =>
        await world.settled(),
      { timeout: 120_000, interval: 250, what: 'the games on the boards' },
    );
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await world.tearDownAll(rating);
  });

  describe.each(Object.entries(IDS))('the API, an id of %s', (_what, id) => {
    it('answers the profile and the history by query, and by path unless a dot segment', async () => {
      const profile = await world.get(byQuery('player', id));
      expect(profile.status).toBe(200);
      expect(profile.body).toMatchObject({ ladder: LADDER, player: id, games: 1, wins: 1 });
      const history = await world.get(byQuery('player/history', id));
      expect(history.status).toBe(200);
      expect(history.body.player).toBe(id);
      expect(history.body.entries).toHaveLength(1);
      const past = await world.get(byQuery('player', id, { at: new Date().toISOString() }));
      expect(past.status).toBe(200);
      expect(past.body).toMatchObject({ player: id, played: true });
      if (DOTS.has(id)) return;
      expect((await world.get(path(id))).body).toEqual(profile.body);
      const byPath = await world.get(`${path(id)}/history`);
      expect(byPath.status).toBe(200);
      expect(byPath.body).toEqual(history.body);
    });

    it('finds it by its whole id as a prefix', async () => {
      const found = await world.get(
        `/ladders/${LADDER}/players?${new URLSearchParams({ prefix: id }).toString()}`,
      );
      expect(found.status).toBe(200);
      expect(found.body.players.map((p: any) => p.player)).toContain(id);
    });
  });

  /** The page's profile shows the player and their history, with no error. */
  const profileShows = async (page: Page, id: string) => {
    await page
      .waitForFunction(
        (want) => {
          const d = (globalThis as any).document;
          return (
            !d.getElementById('profile').hidden &&
            d.getElementById('profile-name').textContent === want &&
            d.querySelectorAll('#history tbody tr').length === 1
          );
        },
        id,
        { timeout: 15_000 },
      )
      .catch(async (error: Error) => {
        throw new Error(`${error.message}\nerror region: ${await page.textContent('#error')}`);
      });
    expect(await page.isHidden('#error')).toBe(true);
  };

  describe.each(Object.entries(IDS))('the page, an id of %s', (_what, id) => {
    it('opens the profile from a link, and from the search box', async () => {
      const page = await browser.newPage();
      try {
        const link = new URLSearchParams({ ladder: LADDER, view: 'live', player: id });
        await page.goto(`http://127.0.0.1:${world.port}/?${link.toString()}`);
        await profileShows(page, id);

        await page.goto(`http://127.0.0.1:${world.port}/?ladder=${LADDER}&view=live`);
        await page.waitForSelector('body[data-ready="true"]');
        await page.fill('#search', id);
        // The suggestion for exactly this id (a prefix of one may suggest others too).
        await page.waitForFunction(
          (want) =>
            [...(globalThis as any).document.querySelectorAll('#search-results button')].some(
              (b: any) => b.dataset.player === want,
            ),
          id,
          { timeout: 15_000 },
        );
        await page.evaluate((want) => {
          const buttons = (globalThis as any).document.querySelectorAll('#search-results button');
          [...buttons].find((b: any) => b.dataset.player === want).click();
        }, id);
        await profileShows(page, id);
        expect(new URL(page.url()).searchParams.get('player')).toBe(id);
      } finally {
        await page.close();
      }
    });
  });
});
