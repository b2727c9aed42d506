import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateEvents } from '@ranking/generator';
import type { LadderEvent } from '@ranking/contracts';
import { createDataSource, exportLog } from '@ranking/persistence';
import { ladderRegistry, LadderFold, type WhatIfReport } from '@ranking/rating';
import { createTestDatabase, jsonLines } from '@ranking/testing';
import type { DataSource } from 'typeorm';
import { launchChromium } from '../leaderboard/headless-chromium.js';
import { storeLog } from './stored-log.js';

const run = promisify(execFile);
const ladders = ladderRegistry();

/** What `ranking whatif` writes: the report and how it was folded. */
type Written = WhatIfReport & {
  source:
    { from: 'events'; file: string } | { from: 'store'; changesFrom?: string; position?: number };
  simulate: boolean;
  until: string | null;
  rejected: { asIs: number; variant: number };
};

/** `ranking whatif` end to end: the built CLI on a file, and on a store the rating service filled. */
describe('ranking whatif', () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;
  const lines = [
    ...generateEvents({ seed: 18, events: 6000, closes: true, correctionShare: 0.03, days: 30 }),
  ];
  const file = () => join(dir, 'log.ndjson');
  const ranking = (...args: string[]) =>
    run(process.execPath, ['bin/ranking.js', ...args], {
      maxBuffer: 1 << 26,
      env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'info' },
    });
  /** A ladders file holding these entries. */
  const laddersFile = async (name: string, entries: unknown): Promise<string> => {
    const path = join(dir, `${name}.json`);
    await writeFile(path, JSON.stringify(entries));
    return path;
  };
  const whatif = async (...args: string[]): Promise<Written> => {
    const out = join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
    const { stderr } = await ranking('whatif', ...args, '--out', out);
    expect(jsonLines(stderr).filter((l) => l.level !== 'info')).toEqual([]);
    return JSON.parse(await readFile(out, 'utf8')) as Written;
  };
  /** The report without the head that says where the log came from. */
  const folded = ({ source: _s, rejected: _r, ...report }: Written) => report;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'whatif-'));
    await writeFile(file(), `${lines.join('\n')}\n`);
    database = await createTestDatabase();
    db = createDataSource(database.url, 'whatif-test');
    await db.initialize();
    await storeLog(db, ladders, lines, 500);
  }, 180_000);
  afterAll(async () => {
    await db.destroy();
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('given the same log in a file and in the event store, then --from-store reports exactly what --events does, and the ladder as it is equals the replay', async () => {
    // Players who start in the 2100 tier move by K 24 and the tier's rescaling, not by 500.
    const variant = await laddersFile('start-2100', [{ id: 'igame-gomoku', startRating: 2100 }]);
    const args = ['--ladder', 'igame-gomoku', '--ladders', variant];
    const fromFile = await whatif(...args, '--events', file());
    const fromStore = await whatif(...args, '--from-store');
    expect(fromFile.source).toEqual({ from: 'events', file: file() });
    expect(fromStore.source).toEqual({ from: 'store' });
    expect(fromStore.rejected).toEqual({ asIs: 0, variant: 0 });
    expect(folded(fromStore)).toEqual(folded(fromFile));

    const { summary, players } = fromFile;
    expect(summary.players).toBeGreaterThan(100);
    expect(summary.moved).toBe(summary.players);
    const changes = new Set(players.map((p) => p.change));
    expect(changes.size).toBeGreaterThan(1);
    expect(summary.largestAbsoluteChange).toBe(Math.max(...[...changes].map(Math.abs)));
    expect(summary.kendallTau).toBeGreaterThan(0.5);
    expect(summary.kendallTau).toBeLessThan(1);

    const replayed = join(dir, 'replayed.json');
    await ranking('replay', '--events', file(), '--out', replayed);
    const standings = JSON.parse(await readFile(replayed, 'utf8')) as {
      ladders: Record<string, { players: Record<string, { rating: number }> }>;
    };
    const asIs = Object.fromEntries(players.map((p) => [p.player, p.asIs.rating]));
    const replay = standings.ladders['igame-gomoku']!.players;
    expect(asIs).toEqual(
      Object.fromEntries(Object.entries(replay).map(([id, p]) => [id, p.rating])),
    );
  });

  it('given a variant identical to the ladder, then nobody moves and tau is 1', async () => {
    const same = await laddersFile('same', [{ id: 'qq-xiangqi' }]);
    const { summary } = await whatif('--ladder', 'qq-xiangqi', '--ladders', same, '--from-store');
    expect(summary).toMatchObject({
      moved: 0,
      meanAbsoluteChange: 0,
      largestAbsoluteChange: 0,
      kendallTau: 1,
      top: { left: [], entered: [] },
    });
    expect(summary.players).toBeGreaterThan(0);
  });

  it('given a variant with other parameters (a K table), then players move, and the variant side equals replay --ladders of the same file', async () => {
    const entry = { id: 'igame-gomoku', params: { k: [{ below: 2100, k: 40 }, { k: 16 }] } };
    const k40 = await laddersFile('k40', [entry]);
    const report = await whatif('--ladder', 'igame-gomoku', '--ladders', k40, '--events', file());
    expect(report.summary.moved).toBeGreaterThan(0);
    expect(report.summary.largestAbsoluteChange).toBeGreaterThan(0);
    const replayed = join(dir, 'k40.json');
    await ranking('replay', '--events', file(), '--ladders', k40, '--out', replayed);
    const standings = JSON.parse(await readFile(replayed, 'utf8')) as {
      ladders: Record<string, { players: Record<string, { rating: number }> }>;
    };
    for (const p of report.players)
      expect(p.variant.rating).toBe(standings.ladders['igame-gomoku']!.players[p.player]!.rating);
  });

  it('given --changes-from, then the variant takes over from the events recorded after that instant: the ladder as it is up to there, the rest of the log under the variant', async () => {
    const ladder = 'igame-gomoku';
    const variant = await laddersFile('k40-later', [
      { id: ladder, params: { k: [{ below: 2100, k: 40 }, { k: 16 }] } },
    ]);
    const log: LadderEvent[] = [];
    for await (const text of exportLog({ query: (q, p) => db.query(q, p) }, ladder))
      for (const line of text.split('\n'))
        if (line !== '') log.push(JSON.parse(line) as LadderEvent);
    const at = Math.floor(log.length * 0.7);
    await db.query(
      `UPDATE event_store SET recorded_at = CASE WHEN seq <= $2 THEN '2026-05-01T00:00:00Z'::timestamptz
         ELSE '2026-05-02T00:00:00Z'::timestamptz END WHERE ladder = $1`,
      [ladder, at],
    );
    const args = ['--ladder', ladder, '--ladders', variant, '--from-store'];
    const whole = await whatif(...args);
    const later = await whatif(...args, '--changes-from', '2026-05-01T20:00:00+08:00');
    expect(later.source).toEqual({
      from: 'store',
      changesFrom: '2026-05-01T12:00:00.000Z',
      position: at,
    });
    expect(later.rejected).toEqual({ asIs: 0, variant: 0 });
    const expected = LadderFold.restore(
      later.variant,
      LadderFold.fromLog(later.asIs, log.slice(0, at)).snapshot(),
    );
    for (const event of log.slice(at)) expected.evolve(event);
    for (const p of later.players) {
      expect(p.variant.rating).toBe(
        expected.players.get(p.player)?.rating ?? later.variant.startRating,
      );
      expect(p.asIs).toEqual(whole.players.find((w) => w.player === p.player)!.asIs);
    }
    // Those who played after the change move, those who did not keep their rating.
    expect(later.summary.moved).toBeGreaterThan(0);
    expect(later.summary.moved).toBeLessThan(whole.summary.moved);

    // From before the log: the whole variant; from after it: nobody moves.
    const before = await whatif(...args, '--changes-from', '2026-04-30T00:00:00Z');
    expect(before.source).toMatchObject({ position: 0 });
    expect(folded(before)).toEqual(folded(whole));
    const after = await whatif(...args, '--changes-from', '2026-05-03T00:00:00Z');
    expect(after.source).toMatchObject({ position: log.length });
    expect(after.summary.moved).toBe(0);
  });

  it('given --simulate and --until, then both folds play the maintenance service as replay --simulate does', async () => {
    const until = '2027-01-01T06:00:00+08:00';
    const games = join(dir, 'games.ndjson');
    await writeFile(games, `${lines.filter((l) => !l.includes('"period.closed"')).join('\n')}\n`);
    const ranked = await laddersFile('ranked-5', [{ id: 'igame-gomoku', rankedAfter: 5 }]);
    const report = await whatif(
      ...['--ladder', 'igame-gomoku', '--ladders', ranked, '--events', games],
      ...['--simulate', '--until', until],
    );
    expect(report).toMatchObject({ simulate: true, until: '2026-12-31T22:00:00.000Z' });
    // Only the board changes: more players on it, nobody's rating.
    expect(report.summary.moved).toBe(0);
    expect(report.summary.ranked.variant).toBeGreaterThan(report.summary.ranked.asIs);
    const replayed = join(dir, 'simulated.json');
    await ranking('replay', '--events', games, '--simulate', '--until', until, '--out', replayed);
    const standings = JSON.parse(await readFile(replayed, 'utf8')) as {
      ladders: Record<string, { players: Record<string, { rating: number }> }>;
    };
    for (const p of report.players)
      expect(p.asIs.rating).toBe(standings.ladders['igame-gomoku']!.players[p.player]!.rating);
  });

  it('given --html, then a self-contained page that Chromium draws without an error or a request', async () => {
    const variant = await laddersFile('html', [
      { id: 'qq-gomoku', startRating: 10, rankedAfter: 3 },
    ]);
    const page = join(dir, 'report.html');
    await ranking(
      ...['whatif', '--ladder', 'qq-gomoku', '--ladders', variant, '--from-store'],
      ...['--html', '--out', page],
    );
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      const problems: string[] = [];
      tab.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      tab.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`console: ${m.text()}`);
      });
      tab.on('request', (r) => {
        if (!r.url().startsWith('file:')) problems.push(`request: ${r.url()}`);
      });
      await tab.goto(`file://${page}`);
      await tab.waitForFunction(() => (globalThis as { whatIfDrawn?: boolean }).whatIfDrawn);
      // Both charts exist and hold data (Chart.js registers every chart it draws).
      const drawn = await tab.evaluate(() => {
        const g = globalThis as unknown as {
          Chart: {
            getChart(id: string): { data: { datasets: { data: unknown[] }[] } } | undefined;
          };
        };
        return ['histogram', 'scatter'].map(
          (id) => g.Chart.getChart(id)?.data.datasets[0]?.data.length ?? 0,
        );
      });
      expect(drawn.every((n) => n > 0)).toBe(true);
      expect(await tab.textContent('h1')).toBe('What if: qq-gomoku');
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('refuses bad arguments with one line naming what is wrong and exit code 1, as every command', async () => {
    const variant = await laddersFile('bad', [{ id: 'igame-gomoku', startRating: 2100 }]);
    const out = join(dir, 'never.json');
    const common = ['--ladders', variant, '--out', out];
    const otherRules = await laddersFile('other-rules', [
      { id: 'igame-gomoku-casual', ruleSet: 'qq-points' },
    ]);
    const cases: [string[], string][] = [
      [
        ['--ladder', 'igame-gomoku', ...common],
        'whatif needs one of --events FILE.ndjson and --from-store',
      ],
      [
        ['--ladder', 'igame-gomoku', '--events', file(), '--from-store', ...common],
        'whatif needs one of --events FILE.ndjson and --from-store',
      ],
      [
        ['--ladder', 'igame-gomoku', '--from-store', '--simulate', ...common],
        "--simulate: only with --events (the stored log holds the maintenance service's closes and penalties)",
      ],
      [
        [
          '--ladder',
          'igame-gomoku',
          '--events',
          file(),
          '--until',
          '2027-01-01T00:00:00Z',
          ...common,
        ],
        '--until: only with --simulate (it closes the periods up to it at the end)',
      ],
      [
        [
          '--ladder',
          'igame-gomoku',
          '--events',
          file(),
          '--simulate',
          '--until',
          '2027-01-01',
          ...common,
        ],
        '--until 2027-01-01: must be an RFC 3339 instant with an offset',
      ],
      [
        [
          '--ladder',
          'igame-gomoku',
          '--events',
          file(),
          '--changes-from',
          '2026-05-01T00:00:00Z',
          ...common,
        ],
        '--changes-from: only with --from-store (it names a moment of the stored log)',
      ],
      [
        ['--ladder', 'igame-gomoku', '--from-store', '--changes-from', '2026-05-01', ...common],
        '--changes-from 2026-05-01: must be an RFC 3339 instant with an offset',
      ],
      [
        [
          '--ladder',
          'igame-gomoku-casual',
          '--from-store',
          '--changes-from',
          '2026-05-01T00:00:00Z',
          '--out',
          out,
          '--ladders',
          otherRules,
        ],
        "--changes-from: the variant must keep the ladder's rule set (record-only): it takes over the ladder's state",
      ],
      [['--ladder', 'no-such', '--events', file(), ...common], '--ladder no-such: no such ladder'],
      [
        ['--ladder', 'qq-gomoku', '--events', file(), ...common],
        `--ladders ${variant}: no entry for ladder qq-gomoku`,
      ],
      [
        ['--ladder', 'igame-gomoku', '--events', file(), '--ladders', variant],
        "required option '--out <file>' not specified",
      ],
    ];
    for (const [args, message] of cases) {
      let failed: { code: number; stderr: string } | undefined;
      try {
        await ranking('whatif', ...args);
      } catch (error) {
        failed = error as { code: number; stderr: string };
      }
      expect({ args, code: failed?.code }).toEqual({ args, code: 1 });
      expect(jsonLines(failed!.stderr)).toMatchObject([
        { level: 'error', context: 'ranking', message, command: 'whatif' },
      ]);
    }
    await expect(readFile(out)).rejects.toThrow('ENOENT');
  });
});
