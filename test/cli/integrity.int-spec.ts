import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { plantWinTrading } from '@ranking/generator';
import type { IntegrityReport } from '@ranking/integrity';
import { createDataSource } from '@ranking/persistence';
import { ladderRegistry } from '@ranking/rating';
import { createTestDatabase } from '@ranking/testing';
import type { DataSource } from 'typeorm';
import { storeLog } from './stored-log.js';

const run = promisify(execFile);

/**
 * `ranking integrity` (ADR 35) on a stream with planted win-trading, from its file and from the
 * event store the rating service's batch code filled: the same report either way, the planted
 * pairs found, and each suspect's dry-run command runs and says who would move.
 */
describe('ranking integrity (real PostgreSQL)', () => {
  const stream = plantWinTrading({ seed: 41, events: 20_000 });
  const lines = [...stream.lines()];
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;
  let dir: string;
  const ranking = (...args: string[]) =>
    run(process.execPath, ['bin/ranking.js', ...args], {
      env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'warn' },
      maxBuffer: 1 << 26,
    });
  const report = async (...args: string[]): Promise<{ text: string; report: IntegrityReport }> => {
    const out = join(dir, `report-${args.join('-').replace(/[^a-z0-9]+/gi, '_')}.json`);
    await ranking('integrity', ...args, '--out', out);
    const text = await readFile(out, 'utf8');
    return { text, report: JSON.parse(text) as IntegrityReport };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'integrity-'));
    await writeFile(join(dir, 'events.ndjson'), `${lines.join('\n')}\n`);
    database = await createTestDatabase();
    db = createDataSource(database.url, 'integrity-test');
    await db.initialize();
    await storeLog(db, ladderRegistry(), lines, 500);
  }, 240_000);
  afterAll(async () => {
    await db.destroy();
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('Given a planted stream in a file, Then the report names planted pairs, beneficiary first, with their evidence and dry-run command, and the same file gives the same bytes', async () => {
    const { text, report: fromFile } = await report('--events', join(dir, 'events.ndjson'));
    const ladder = fromFile.ladders[stream.truth.ladder]!;
    expect(ladder.games).toBe(lines.length);
    const planted = new Set(stream.truth.planted.map((p) => `${p.beneficiary}|${p.feeder}`));
    const found = ladder.suspects.filter((s) => planted.has(s.players.join('|')));
    expect(found.length).toBeGreaterThanOrEqual(8);
    expect(found.length).toBe(ladder.suspects.length);
    for (const s of ladder.suspects) {
      expect(s.evidence[0]).toMatch(/^\d+(\.5)? of \d+ won against an expected \d+\.\d$/);
      expect(s.dryRun).toBe(
        `ranking annul --dry-run --ladder 'igame-gomoku' --player '${s.players[0]}' --since '${s.since}' --note 'win-trading with ${s.players[1]}'`,
      );
    }
    const again = await report('--events', join(dir, 'events.ndjson'), '--min-games', '12');
    expect(again.text).toBe(text);
  });

  it('Given the same stream in the event store, Then --from-store reports the same, and a suspect’s dry run shows who would move', async () => {
    const fromFile = await report('--events', join(dir, 'events.ndjson'));
    const fromStore = await report('--from-store', '--ladder', 'igame-gomoku');
    expect(fromStore.text).toBe(fromFile.text);

    const [first] = fromStore.report.ladders['igame-gomoku']!.suspects;
    // Its words as a shell splits them (single quotes only: the command quotes every value).
    const [command, ...args] = first!.dryRun
      .match(/'[^']*'|\S+/g)!
      .map((word) => word.replace(/^'(.*)'$/, '$1'));
    expect([command, ...args.slice(0, 2)]).toEqual(['ranking', 'annul', '--dry-run']);
    const { stdout } = await ranking(...args);
    const preview = JSON.parse(stdout) as {
      player: string;
      moved: number;
      changes: { player: string }[];
    };
    expect(preview.player).toBe(first!.players[0]);
    expect(preview.moved).toBeGreaterThan(0);
    expect(preview.changes.map((c) => c.player)).toContain(first!.players[0]);
  });

  it('Given neither or both sources, or --ladder without the store, Then it refuses with one line', async () => {
    for (const args of [
      [],
      ['--events', 'x', '--from-store'],
      ['--events', 'x', '--ladder', 'igame-gomoku'],
    ]) {
      const failed = await ranking('integrity', ...args, '--out', join(dir, 'never.json')).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed?.code).toBe(1);
      expect(failed!.stderr).toMatch(/--events|--from-store|--ladder/);
    }
  });
});
