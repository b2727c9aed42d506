/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- the API's JSON answers and the page's objects are read untyped */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { generateEvents } from '@ranking/generator';
import { ladderRegistry } from '@ranking/rating';
import { waitFor } from '@ranking/testing';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './headless-chromium.js';
import { DEMO_TOURNAMENTS, LeaderboardWorld } from './leaderboard-world.js';

const run = promisify(execFile);
const SHOTS = 'test-results/page';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

// Functions passed to evaluate/waitForFunction run in the browser: they reach the page through
// globalThis (this project compiles without DOM types), and cannot call this file's functions.

/** What the page shows for a board row: rank, player, rating, title or level, W, L, D. */
const rowCells = (r: any) => [
  String(r.rank),
  r.player,
  String(r.rating),
  r.title ?? (r.level !== undefined && r.level !== null ? `${r.level}级` : ''),
  String(r.wins),
  String(r.losses),
  String(r.draws),
];

/** The page's board rows, as cell texts. */
const pageRows = (page: Page): Promise<string[][]> =>
  page.$$eval('#board tbody tr', (rows) =>
    rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')),
  );

/** Waits until the page's board shows exactly these rows. */
async function boardShows(page: Page, rows: any[]): Promise<void> {
  const expected = rows.map(rowCells);
  await page
    .waitForFunction(
      (want) =>
        JSON.stringify(
          [...(globalThis as any).document.querySelectorAll('#board tbody tr')].map((r: any) =>
            [...r.querySelectorAll('td')].map((td: any) => td.textContent ?? ''),
          ),
        ) === JSON.stringify(want),
      expected,
      { timeout: 15_000 },
    )
    .catch(async (error: Error) => {
      throw new Error(
        `${error.message}\nwanted ${JSON.stringify(expected.slice(0, 3))}\nshown ${JSON.stringify((await pageRows(page)).slice(0, 3))}\nerror region: ${await page.textContent('#error')}`,
      );
    });
}

/**
 * Characters of the text no font Chromium used for the node covers: the fonts it used come from
 * CDP (CSS.getPlatformFontsForNode), their coverage from fontconfig.
 */
async function missingGlyphs(page: Page, selector: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
    const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector });
    if (nodeIds.length === 0) throw new Error(`nothing matches ${selector}`);
    const missing: string[] = [];
    for (const nodeId of nodeIds) {
      const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
      const { outerHTML } = await cdp.send('DOM.getOuterHTML', { nodeId });
      const text = outerHTML.replace(/<[^>]*>/g, '').trim();
      for (const ch of new Set([...text].filter((c) => c.trim() !== ''))) {
        const hex = ch.codePointAt(0)!.toString(16);
        let covered = false;
        for (const font of fonts) {
          const { stdout } = await run('fc-list', [
            `:family=${font.familyName}:charset=${hex}`,
            'family',
          ]);
          if (stdout.trim() !== '') {
            covered = true;
            break;
          }
        }
        if (!covered)
          missing.push(
            `${ch} (U+${hex}) in "${text}" with ${fonts.map((f) => f.familyName).join(', ')}`,
          );
      }
    }
    return missing;
  } finally {
    await cdp.detach();
  }
}

/**
 * Elements reaching past the window's right edge (outside the cards' scrolling tables): a phone
 * would scroll the whole page sideways.
 */
const overflowing = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const d = (globalThis as any).document;
    const width = d.documentElement.clientWidth;
    return [...d.querySelectorAll('body *')]
      .filter(
        (e: any) => e.getBoundingClientRect().right > width + 1 && !e.closest('.scroll, .group'),
      )
      .map(
        (e: any) =>
          `${e.tagName.toLowerCase()}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`,
      )
      .slice(0, 10);
  });

/**
 * What still reaches past the window once the layout has settled: Chart.js resizes its canvas a
 * frame or more after the window changes (later on a busy machine), so the check waits for it.
 */
async function overflowingOnceSettled(page: Page): Promise<string[]> {
  await waitFor(async () => (await overflowing(page)).length === 0, {
    timeout: 10_000,
    interval: 100,
    what: 'the layout to fit the window',
  }).catch(() => undefined);
  return overflowing(page);
}

/**
 * The stream's first day, 2026-11-01 to 2026-11-05: drawn, unless RANKING_PAGE_START_DAY (1 to 5)
 * forces it. The draw is in the suite's name, so a failing run can be replayed with it.
 */
const START_DAY = startDay(process.env.RANKING_PAGE_START_DAY);

function startDay(forced: string | undefined): number {
  if (forced === undefined || forced === '') return 1 + (randomBytes(1)[0]! % 5);
  if (!/^[1-5]$/.test(forced))
    throw new Error(`RANKING_PAGE_START_DAY=${forced}: must be a day from 1 to 5`);
  return Number(forced);
}

/**
 * What the simulator takes as now when it plays the demo tournament and its day of backfill:
 * after the stream's last day (2026-11-10 at the latest), so the data are the same whatever the
 * clock says (laid out from the clock, the stream's boards fell out of the 30 kept beside the
 * backfill's as the weeks went by, and the closes the backfill crossed moved with the hour).
 */
const SIMULATED_NOW = '2026-11-20T12:00:00+08:00';

/** The page end to end: real data through both services, drawn by a real browser. */
describe(`leaderboard page (headless Chromium, real services; start day ${START_DAY}, replay with RANKING_PAGE_START_DAY=${START_DAY})`, () => {
  const ladders = ladderRegistry();
  const world = new LeaderboardWorld(ladders);
  const lines = [
    ...generateEvents({
      seed: 71,
      events: 2000,
      closes: true,
      days: 5,
      playersPerLadder: 40,
      start: `2026-11-0${START_DAY}T00:00:00+08:00`,
    }),
  ];
  let rating: ReturnType<LeaderboardWorld['service']>;
  let midway = 0;
  /** Uncaught exceptions in the page (a CSP refusal of a script shows up here too). */
  const pageErrors: string[] = [];
  let browser: Browser;
  let page: Page;
  const base = () => `http://127.0.0.1:${world.port}`;

  /**
   * A player's history as the profile reads it (app.js `historyOf`): pages of 200 following the
   * cursor until there is none or 1000 entries are in, newest first.
   */
  async function profileHistory(ladder: string, player: string): Promise<any[]> {
    const entries: any[] = [];
    let cursor: string | null = null;
    do {
      const q = new URLSearchParams({ limit: '200' });
      if (cursor) q.set('cursor', cursor);
      const { status, body } = await world.get(
        `/ladders/${ladder}/players/${encodeURIComponent(player)}/history?${q.toString()}`,
      );
      if (status !== 200)
        throw new Error(`history of ${player}: ${status} ${JSON.stringify(body)}`);
      entries.push(...body.entries);
      cursor = body.nextCursor ?? null;
    } while (cursor && entries.length < 1000);
    return entries;
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    rating = await world.serving(lines, { RANKING_TOURNAMENTS_FILE: DEMO_TOURNAMENTS });
    // A whole second after the generated stream was applied and before the tournament's games:
    // the point-in-time board of this moment is the stream's alone.
    midway = Math.ceil((Date.now() + 1) / 1000) * 1000;
    await waitFor(() => Date.now() > midway, {
      timeout: 5_000,
      interval: 50,
      what: 'midway',
    });
    // The demo tournament (for its view): what deploy/run.sh plays, a day of games, laid out
    // before SIMULATED_NOW.
    await world.playDemoTournaments('warn', SIMULATED_NOW);
    await waitFor(() => world.drained(), { timeout: 120_000, interval: 250, what: 'the drain' });
    await waitFor(async () => (await world.get('/ladders/qq-xiangqi/leaderboard')).status === 200, {
      timeout: 60_000,
      interval: 250,
      what: 'a daily board',
    });
    await waitFor(() => world.settled(), { timeout: 60_000, interval: 250, what: 'the boards' });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: DESKTOP });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await world.tearDownAll(rating);
  });

  it('given the xiangqi ladder, when its board opens, then the rows equal the API (titles as the seeds write them) and the game is named in its language beside its id', async () => {
    await page.goto(`${base()}/?ladder=qq-xiangqi`);
    const api = (await world.get('/ladders/qq-xiangqi/leaderboard?limit=25')).body;
    expect(api.rows.length).toBeGreaterThan(0);
    await boardShows(page, api.rows);
    const ladder = (await world.get('/ladders')).body.ladders.find(
      (l: any) => l.id === 'qq-xiangqi',
    );
    expect(await page.textContent('#ladder-name')).toBe(ladder.name);
    expect(await page.getAttribute('#ladder-name span', 'lang')).toBe(ladder.lang);
    expect(await page.textContent('#ladder-id')).toBe('qq-xiangqi');
    expect(await page.getAttribute('#board tbody tr td:nth-child(4) span', 'lang')).toBe(
      ladder.lang,
    );
    expect(await page.getAttribute('html', 'lang')).toBe('en');
  });

  it('given the Xinbo ladder, when its board opens, then levels read 14级 and every title glyph is in a loaded font (no boxes), as on the QQ board', async () => {
    await page.goto(`${base()}/?ladder=xinbo-go`);
    const api = (await world.get('/ladders/xinbo-go/leaderboard?limit=25')).body;
    expect(api.rows.some((r: any) => typeof r.level === 'number')).toBe(true);
    await boardShows(page, api.rows);
    expect(await missingGlyphs(page, '#board tbody td:nth-child(4) span')).toEqual([]);
    expect(await missingGlyphs(page, '#ladder-name span')).toEqual([]);
    // The check sees a box: a private-use character no font has.
    await page.evaluate(() => {
      const span = (globalThis as any).document.createElement('span');
      span.id = 'no-glyph';
      span.textContent = '\ue000';
      (globalThis as any).document.querySelector('#board-info').appendChild(span);
    });
    expect(await missingGlyphs(page, '#no-glyph')).toEqual([expect.stringContaining('(U+e000)')]);
    await page.goto(`${base()}/?ladder=qq-xiangqi`);
    await page.waitForSelector('#board tbody td:nth-child(4) span');
    expect(await missingGlyphs(page, '#board tbody td:nth-child(4) span')).toEqual([]);
    expect(await missingGlyphs(page, '#ladder-name span')).toEqual([]);
  });

  it('given a board of several pages, when next, previous and jump to rank are used, then each page equals the API and the URL keeps the state', async () => {
    await page.goto(`${base()}/?ladder=qq-xiangqi`);
    const first = (await world.get('/ladders/qq-xiangqi/leaderboard?limit=25')).body;
    expect(first.nextCursor).toBeTruthy();
    await boardShows(page, first.rows);
    await page.click('#next');
    const second = (
      await world.get(`/ladders/qq-xiangqi/leaderboard?limit=25&cursor=${first.nextCursor}`)
    ).body;
    await boardShows(page, second.rows);
    expect(new URL(page.url()).searchParams.get('cursor')).toBe(first.nextCursor);
    await page.click('#previous');
    await boardShows(page, first.rows);
    await page.fill('#jump', '7');
    await page.click('#jump-go');
    const seventh = (await world.get('/ladders/qq-xiangqi/leaderboard?limit=25&rank=7')).body;
    expect(seventh.from).toBe(7);
    await boardShows(page, seventh.rows);
    expect(new URL(page.url()).searchParams.get('rank')).toBe('7');
    expect(await page.textContent('#page-info')).toContain('rows 7–');
    // Back returns to the first page.
    await page.goBack();
    await boardShows(page, first.rows);
  });

  it('given the stored daily boards, when a past day is picked, then the board is that day’s', async () => {
    const { boards } = (await world.get('/ladders/qq-xiangqi/boards')).body;
    expect(boards.length).toBeGreaterThan(1);
    const day = boards[boards.length - 1].date;
    await page.goto(`${base()}/?ladder=qq-xiangqi`);
    await page.waitForSelector('#board tbody tr');
    await page.selectOption('#view', 'day');
    await page.waitForSelector(`#date option[value="${day}"]`, { state: 'attached' });
    await page.selectOption('#date', day);
    const api = (await world.get(`/ladders/qq-xiangqi/leaderboard?limit=25&date=${day}`)).body;
    await boardShows(page, api.rows);
    expect(await page.textContent('#board-info')).toContain(`board of ${day}`);
    expect(new URL(page.url()).searchParams.get('date')).toBe(day);
  });

  it('given a moment typed in the ladder’s zone, when shown, then the board equals the API’s point-in-time answer', async () => {
    const { ladders: all } = (await world.get('/ladders')).body;
    expect(all.find((l: any) => l.id === 'igame-gomoku').timezone).toBe('Asia/Taipei');
    // The moment in Asia/Taipei (+08:00, no summer time), as a person types it.
    const typed = new Date(midway + 8 * 3_600_000).toISOString().slice(0, 19);
    const at = `${typed}+08:00`;
    await page.goto(`${base()}/?ladder=igame-gomoku`);
    await page.waitForSelector('#board tbody tr');
    await page.selectOption('#view', 'at');
    await page.fill('#at', typed);
    await page.click('#at-show');
    const api = (
      await world.get(
        `/ladders/igame-gomoku/leaderboard?view=live&limit=25&at=${encodeURIComponent(at)}`,
      )
    ).body;
    const live = (await world.get('/ladders/igame-gomoku/leaderboard?view=live&limit=25')).body;
    expect(api.rows.length).toBeGreaterThan(0);
    expect(api.rows).not.toEqual(live.rows);
    await boardShows(page, api.rows);
    expect(new URL(page.url()).searchParams.get('at')).toBe(at);
  });

  it('given a player’s id prefix, when typed in the search, then the suggestions come from the API and choosing one opens the profile', async () => {
    const top = (await world.get('/ladders/qq-gomoku/leaderboard?limit=1')).body.rows[0];
    // The suggestions are the first 10 ids in order: the id less its last character may leave
    // the top player out (gomoku7 after gomoku0, gomoku1, gomoku10 … gomoku17), the whole id
    // never does (an id comes before the ids it starts).
    const suggested = async (prefix: string) =>
      (await world.get(`/ladders/qq-gomoku/players?prefix=${encodeURIComponent(prefix)}&limit=10`))
        .body;
    let prefix = top.player.slice(0, top.player.length - 1);
    let api = await suggested(prefix);
    if (!api.players.some((p: any) => p.player === top.player)) {
      prefix = top.player;
      api = await suggested(prefix);
    }
    await page.goto(`${base()}/?ladder=qq-gomoku`);
    await page.waitForSelector('#board tbody tr');
    await page.fill('#search', prefix);
    await page.waitForSelector(`#search-results button[data-player="${top.player}"]`);
    expect(
      await page.$$eval('#search-results button', (b) => b.map((x: any) => x.dataset.player)),
    ).toEqual(api.players.map((p: any) => p.player));
    await page.click(`#search-results button[data-player="${top.player}"]`);
    await page.waitForFunction(
      (p) => (globalThis as any).document.querySelector('#profile-name')?.textContent === p,
      top.player,
    );
    expect(new URL(page.url()).searchParams.get('player')).toBe(top.player);
  });

  it('given a player’s history, when the profile opens, then the chart’s points are the history on a time axis, hovering names the opponent and a drag zooms into a range', async () => {
    const player = (await world.get('/ladders/qq-xiangqi/leaderboard?limit=1')).body.rows[0].player;
    // Every page of it, as the profile reads it: how many the top player has depends on the draw.
    const entries = await profileHistory('qq-xiangqi', player);
    expect(entries.length).toBeGreaterThan(1);
    await page.goto(`${base()}/?ladder=qq-xiangqi&player=${player}`);
    await page.waitForFunction(() =>
      (globalThis as any).Chart?.getChart((globalThis as any).document.querySelector('#chart')),
    );
    const chart = await page.evaluate(() => {
      const c = (globalThis as any).Chart.getChart(
        (globalThis as any).document.querySelector('#chart'),
      );
      return {
        scale: c.options.scales.x.type,
        zone: c.options.scales.x.adapters.date.zone,
        datasets: c.data.datasets.length,
        points: c.data.datasets[0].data.map((p: any) => ({ x: p.x, y: p.y })),
        pixels: c.getDatasetMeta(0).data.map((p: any) => p.x as number),
      };
    });
    const oldest = [...entries].reverse();
    expect(chart.scale).toBe('time');
    expect(chart.zone).toBe('Asia/Shanghai');
    expect(chart.points).toEqual([
      { x: Date.parse(oldest[0].event.at), y: oldest[0].before },
      ...oldest.map((e: any) => ({ x: Date.parse(e.event.at), y: e.after })),
    ]);
    // The skill band sits beside the rating when the history carries the estimate.
    expect(chart.datasets).toBe(oldest.some((e: any) => e.skill) ? 3 : 1);
    // Hover a game's point: the tooltip names the opponent and gives the change. The point is
    // the game (past the first) farthest from its neighbours on the x axis: the tooltip takes the
    // point nearest the pointer, and a long history packs points closer than a pixel.
    const clearance = (i: number) =>
      Math.min(
        chart.pixels[i + 1]! - chart.pixels[i]!,
        i + 2 < chart.pixels.length ? chart.pixels[i + 2]! - chart.pixels[i + 1]! : Infinity,
      );
    let index = -1;
    oldest.forEach((e: any, i: number) => {
      if (i > 0 && e.others.length === 1 && (index < 0 || clearance(i) > clearance(index)))
        index = i;
    });
    expect(index).toBeGreaterThan(0);
    expect(clearance(index)).toBeGreaterThan(2);
    const entry = oldest[index];
    const at = await page.evaluate((i) => {
      const c = (globalThis as any).Chart.getChart(
        (globalThis as any).document.querySelector('#chart'),
      );
      const p = c.getDatasetMeta(0).data[i + 1];
      const box = c.canvas.getBoundingClientRect();
      return { x: box.left + p.x, y: box.top + p.y };
    }, index);
    await page.mouse.move(at.x, at.y);
    await page.waitForFunction(
      () =>
        (globalThis as any).Chart.getChart((globalThis as any).document.querySelector('#chart'))
          .tooltip.opacity > 0,
    );
    const tooltip = await page.evaluate(() => {
      const t = (globalThis as any).Chart.getChart(
        (globalThis as any).document.querySelector('#chart'),
      ).tooltip;
      return [...t.title, ...t.body.flatMap((b: any) => b.lines)].join('\n');
    });
    expect(tooltip).toContain(entry.others[0].player);
    expect(tooltip).toContain(
      entry.delta > 0 ? `+${entry.delta}` : entry.delta < 0 ? `−${-entry.delta}` : '±0',
    );
    // A drag across the chart zooms into that range; the button resets it.
    const xRange = () =>
      page.evaluate(() => {
        const c = (globalThis as any).Chart.getChart(
          (globalThis as any).document.querySelector('#chart'),
        );
        const box = c.canvas.getBoundingClientRect();
        return {
          min: c.scales.x.min,
          max: c.scales.x.max,
          left: box.left + c.chartArea.left,
          right: box.left + c.chartArea.right,
          y: box.top + (c.chartArea.top + c.chartArea.bottom) / 2,
        };
      });
    const whole = await xRange();
    const span = whole.right - whole.left;
    await page.mouse.move(whole.left + span * 0.3, whole.y);
    await page.mouse.down();
    await page.mouse.move(whole.left + span * 0.6, whole.y, { steps: 5 });
    await page.mouse.up();
    const zoomed = await xRange();
    expect(zoomed.min).toBeGreaterThan(whole.min);
    expect(zoomed.max).toBeLessThan(whole.max);
    await page.click('#zoom-reset');
    expect(await xRange()).toEqual(whole);
    // The history table: one row a change, newest first, with the game's own time.
    const firstRow = await page.$$eval('#history tbody tr:first-child td', (tds) =>
      tds.map((td) => td.textContent ?? ''),
    );
    expect(firstRow[2]).toBe(String(entries[0].after));
    expect(firstRow[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(firstRow[1]).not.toContain('kind:');
    await page.screenshot({ path: `${SHOTS}/profile-desktop.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    await page.waitForSelector('#history tbody tr');
    expect(await overflowingOnceSettled(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/profile-phone.png`, fullPage: true });
    await page.setViewportSize(DESKTOP);
  });

  it('given rating changes of each kind, when put in words, then they read as the issue asks', async () => {
    await page.goto(`${base()}/?ladder=qq-xiangqi`);
    const text = await page.evaluate(async () => {
      const url = '/history.js';
      const m = await import(url);
      const other = (player: string, before: number, result: string) => ({
        player,
        before,
        result,
      });
      const say = (e: any, player = 'me') => m.textOf(m.sentence({ delta: 0, ...e }, player));
      return [
        say({
          result: 'win',
          delta: 14,
          why: { kind: 'elo', k: 32, expected: 0.5612, score: 1 },
          others: [other('棋手甲', 1812, 'loss')],
        }),
        say({
          result: 'loss',
          delta: -8,
          why: { kind: 'qq-points', gap: 60, bracket: 'far' },
          others: [other('b', 1500, 'win')],
        }),
        say({
          result: 'draw',
          why: { kind: 'gate', gate: 'gap>=100' },
          others: [other('c', 1400, 'draw')],
        }),
        say({
          result: 'win',
          delta: 20,
          why: { kind: 'card-points', card: 35, place: 1, doubled: false },
          others: [other('d', 10, 'loss'), other('e', 12, 'loss')],
        }),
        say({
          result: 'win',
          delta: 6,
          why: {
            kind: 'squares',
            remaining: 3,
            winnerCleared: true,
            perfect: false,
            teamShare: 0.5,
          },
          others: [other('A', 20, 'win'), other('B', 15, 'loss'), other('C', 0, 'loss')],
        }),
        say({
          delta: -30,
          why: {
            kind: 'penalty',
            reason: 'weekly-quota',
            points: 30,
            floor: null,
            played: 4,
            quota: 7,
          },
          others: [],
        }),
        say({
          delta: -100,
          why: { kind: 'penalty', reason: 'disconnects', points: 100, floor: null },
          others: [],
        }),
        say({ why: { kind: 'level', from: 15, to: 14, stage: 'territory' }, others: [] }),
        say({ delta: 5, why: { kind: 'correction', gameId: 'g', void: false }, others: [] }),
        say({
          delta: -40,
          why: { kind: 'annulment', player: 'me', since: 0 },
          event: {
            type: 'player.annulled',
            at: '2026-11-01T00:00:00Z',
            reason: 'fair-play review',
          },
          others: [],
        }),
        say({ delta: 3, why: { kind: 'annulment', player: 'cheat', since: 0 }, others: [] }),
      ];
    });
    expect(text).toEqual([
      'beat 棋手甲 (1812) · +14 (K 32, expected 0.56)',
      'lost to b (1500) · −8 (gap 60, far)',
      'drew with c (1400) · result only (gap ≥ 100)',
      '1st of 3 vs d (10), e (12) · +20 (card points 35)',
      'won with A vs B (15), C (0) · +6 (3 squares left, winner cleared, team share 0.5)',
      'weekly quota: 4 of 7 games · −30',
      'penalty (disconnects) · −100',
      'level 15级 → 14级',
      'adjudicated: result corrected · +5',
      'annulled (fair-play review) · −40',
      "re-rated: cheat's games annulled · +3",
    ]);
  });

  it('given every ladder’s real histories, when put in words, then no sentence shows a raw value', async () => {
    const { ladders: all } = (await world.get('/ladders')).body;
    const histories: { player: string; entries: any[] }[] = [];
    for (const ladder of all.filter((l: any) => l.hasLeaderboard)) {
      const board = (await world.get(`/ladders/${ladder.id}/leaderboard?view=live&limit=3`)).body;
      for (const row of board.rows) {
        const history = (
          await world.get(`/ladders/${ladder.id}/players/${row.player}/history?limit=200`)
        ).body;
        histories.push({ player: row.player, entries: history.entries });
      }
    }
    expect(histories.length).toBeGreaterThan(10);
    await page.goto(`${base()}/?ladder=qq-xiangqi`);
    const sentences: string[] = await page.evaluate(async (all) => {
      const url = '/history.js';
      const m = await import(url);
      return all.flatMap((h: any) => h.entries.map((e: any) => m.textOf(m.sentence(e, h.player))));
    }, histories);
    // For review beside the screenshots.
    writeFileSync(`${SHOTS}/sentences.txt`, `${sentences.join('\n')}\n`);
    expect(sentences.length).toBeGreaterThan(100);
    expect(sentences.filter((t) => /undefined|null|NaN|\[object|kind:/.test(t))).toEqual([]);
  });

  it('given the board, when a row is reached with Tab and opened with Enter, then the profile shows that player', async () => {
    await page.goto(`${base()}/?ladder=qq-gomoku`);
    await page.waitForSelector('#board tbody tr');
    const second = (await world.get('/ladders/qq-gomoku/leaderboard?limit=25')).body.rows[1].player;
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      if (
        await page.evaluate(
          () => (globalThis as any).document.activeElement?.closest?.('#board tbody tr') !== null,
        )
      )
        break;
    }
    expect(
      await page.evaluate(() => (globalThis as any).document.activeElement?.dataset?.rank),
    ).toBe('1');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (p) => (globalThis as any).document.querySelector('#profile-name')?.textContent === p,
      second,
    );
    expect(await page.isVisible('#profile')).toBe(true);
  });

  it('given a deep link, when opened, then it restores the ladder, the day, the rank and the profile; a link to an unknown ladder or a bad moment shows the API’s message', async () => {
    const { boards } = (await world.get('/ladders/qq-gomoku/boards')).body;
    const day = boards[boards.length - 1].date;
    const api = (await world.get(`/ladders/qq-gomoku/leaderboard?limit=25&date=${day}&rank=3`))
      .body;
    const player = api.rows[0].player;
    await page.goto(`${base()}/?ladder=qq-gomoku&view=day&date=${day}&rank=3&player=${player}`);
    await boardShows(page, api.rows);
    await page.waitForFunction(
      (p) => (globalThis as any).document.querySelector('#profile-name')?.textContent === p,
      player,
    );
    expect(await page.inputValue('#view')).toBe('day');
    expect(await page.isVisible('#error')).toBe(false);

    await page.goto(`${base()}/?ladder=no-such-game`);
    await page.waitForSelector('#error:not([hidden])');
    const unknown = await world.get('/ladders/no-such-game/leaderboard?limit=25&view=daily');
    expect(unknown.status).toBe(404);
    expect(await page.textContent('[role=alert]')).toContain(unknown.body.detail);

    await page.goto(`${base()}/?ladder=qq-gomoku&view=at&at=yesterday`);
    await page.waitForSelector('#error:not([hidden])');
    expect(await page.textContent('[role=alert]')).toContain('400');
  });

  it('given the board, a profile and the demo tournament, when drawn at desktop and phone sizes, then screenshots are written and the tournament tables stay inside their cards', async () => {
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.goto(`${base()}/?ladder=qq-xiangqi`);
      await page.waitForSelector('#board tbody tr');
      expect(await overflowingOnceSettled(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/board-${size}.png`, fullPage: true });
      await page.goto(`${base()}/?tournament=demo-cup`);
      await page.waitForSelector('#groups .group tbody tr');
      // The groups name their game as the seed pages write it.
      expect(await page.textContent('#groups .group p span[lang="zh-Hans"]')).toBe(
        (await world.get('/ladders')).body.ladders.find((l: any) => l.id === 'qq-gomoku').name,
      );
      await page.screenshot({ path: `${SHOTS}/tournament-${size}.png`, fullPage: true });
      // Nothing wider than the window: tables scroll inside their cards.
      expect(await overflowingOnceSettled(page)).toEqual([]);
    }
    await page.setViewportSize(DESKTOP);
  });

  it('given the live view, when a game is produced, then the board refreshes by itself to the API’s new rows', async () => {
    await page.goto(`${base()}/?ladder=qq-xiangqi&view=live`);
    const before = (await world.get('/ladders/qq-xiangqi/leaderboard?view=live&limit=25')).body;
    await boardShows(page, before.rows);
    // The top player loses: a loss to a lower-rated player always moves a qq-elo rating (a win
    // over a far weaker one may round to no change).
    const [top, next] = before.rows;
    // A minute after the simulator's now: after every game and close of the suite's data.
    const at = new Date(Date.parse(SIMULATED_NOW) + 60_000).toISOString();
    await world.produce([
      JSON.stringify({
        id: `page-live-${randomBytes(4).toString('hex')}`,
        type: 'game.finished',
        ladder: 'qq-xiangqi',
        gameId: `page-live-${randomBytes(4).toString('hex')}`,
        finishedAt: at,
        moves: 60,
        reason: 'checkmate',
        players: [
          { id: top.player, result: 'loss', side: 'red', first: true },
          { id: next.player, result: 'win', side: 'black', first: false },
        ],
      }),
    ]);
    // The API moves first (the game through both services), then the page follows by itself.
    let after: any = before;
    await waitFor(
      async () => {
        after = (await world.get('/ladders/qq-xiangqi/leaderboard?view=live&limit=25')).body;
        return after.rows.find((r: any) => r.player === top.player)?.rating !== top.rating;
      },
      { timeout: 60_000, interval: 250, what: 'the live board to take the game' },
    );
    await waitFor(() => world.caughtUp(), { timeout: 60_000, interval: 250, what: 'the board' });
    after = (await world.get('/ladders/qq-xiangqi/leaderboard?view=live&limit=25')).body;
    await boardShows(page, after.rows);
    expect(pageErrors).toEqual([]);
  });
});
