import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { TOPICS } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import {
  createDataSource,
  exportLog,
  exportStandings,
  type RawMessage,
  type Sql,
} from '@ranking/persistence';
import { ladderRegistry, ReplayEngine } from '@ranking/rating';
import { collectText, createTestDatabase, waitFor } from '@ranking/testing';
import type { DataSource } from 'typeorm';
// The rating service's own batch code fills the database, as in production (a test, not an app, reaching in).
// eslint-disable-next-line no-restricted-imports
import { handlePartitionBatch } from '../../apps/rating-service/src/partition-batch.js';

const run = promisify(execFile);
const ladders = ladderRegistry();

/** `ranking rebuild` on a database the rating service's batch code filled. */
describe('ranking rebuild (real PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;
  const sql: Sql = { query: (text, params) => db.query(text, params) };
  const rebuild = (...args: string[]) =>
    run(process.execPath, ['bin/ranking.js', 'rebuild', ...args], {
      env: { ...process.env, DATABASE_URL: database.url },
    });
  /** Exit code and output, whether it failed or not. */
  const outcome = async (...args: string[]) => {
    try {
      const { stdout } = await rebuild(...args);
      return { code: 0, stdout };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  const checksums = (stdout: string) => ({
    rebuilt: /^rebuilt: .*sha256 ([0-9a-f]{64})$/m.exec(stdout)?.[1],
    live: /^live: .*sha256 ([0-9a-f]{64})$/m.exec(stdout)?.[1],
  });

  const lines = [
    ...generateEvents({
      seed: 41,
      events: 4000,
      closes: true,
      badShare: 0.04,
      correctionShare: 0.03,
      days: 20,
    }),
  ];

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDataSource(database.url, 'rebuild-test');
    await db.initialize();
    const messages: RawMessage[] = lines.map((line, i) => ({
      topic: TOPICS.ladderEvents,
      partition: 0,
      offset: String(i),
      key: Buffer.from('k'),
      value: Buffer.from(line),
    }));
    for (let at = 0; at < messages.length; at += 250) {
      await db.transaction((manager) =>
        handlePartitionBatch(
          { query: (text, params) => manager.query(text, params) },
          ladders,
          TOPICS.ladderEvents,
          0,
          messages.slice(at, at + 250),
        ),
      );
    }
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  const active = async () => {
    const rows: { ladder: string }[] = await db.query(
      'SELECT ladder FROM ladders WHERE accepted > 0 ORDER BY ladder',
    );
    return rows.map((r) => r.ladder);
  };

  it('given the state the rating service folded, then every ladder rebuilds to a match (exit 0)', async () => {
    const folded = await active();
    expect(folded.length).toBeGreaterThanOrEqual(5);
    for (const ladder of folded) {
      const { code, stdout } = await outcome('--ladder', ladder);
      expect({ ladder, code }).toEqual({ ladder, code: 0 });
      expect(stdout).toMatch(
        new RegExp(`^ladder ${ladder}: re-folded [1-9]\\d* events .* events/s\\)$`, 'm'),
      );
      expect(stdout).toMatch(/^match$/m);
      const { rebuilt, live } = checksums(stdout);
      expect(rebuilt).toBeDefined();
      expect(live).toBe(rebuilt);
      expect(stdout).not.toMatch(/warning/);
    }
    // Nothing to repair: --swap leaves the tables alone.
    const kept = await outcome('--ladder', folded[0]!, '--swap');
    expect(kept.code).toBe(0);
    expect(kept.stdout).toMatch(/^match$/m);
    expect(kept.stdout).not.toMatch(/swapped/);
  });

  it('given one corrupted rating, then rebuild says MISMATCH (exit 3), --swap repairs it, and the state equals the replay of the log', async () => {
    const ladder = 'igame-gomoku';
    const games = (): Promise<unknown[]> =>
      db.query('SELECT game_id, record FROM ladder_games WHERE ladder = $1 ORDER BY game_id', [
        ladder,
      ]);
    const otherLadders = (): Promise<unknown[]> =>
      db.query(
        'SELECT ladder, count(*) AS n, sum(rating) AS r FROM ladder_players WHERE ladder <> $1 GROUP BY ladder ORDER BY ladder',
        [ladder],
      );
    const gamesBefore = await games();
    const othersBefore = await otherLadders();
    const good = await outcome('--ladder', ladder);
    await db.query(
      `UPDATE ladder_players SET rating = rating + 7
       WHERE ladder = $1 AND player = (SELECT player FROM ladder_players WHERE ladder = $1 AND games > 0 ORDER BY player LIMIT 1)`,
      [ladder],
    );

    const bad = await outcome('--ladder', ladder);
    expect(bad.code).toBe(3);
    expect(bad.stdout).toMatch(/^MISMATCH$/m);
    expect(checksums(bad.stdout).rebuilt).toBe(checksums(good.stdout).rebuilt);
    expect(checksums(bad.stdout).live).not.toBe(checksums(bad.stdout).rebuilt);
    expect(bad.stdout).not.toMatch(/swapped/);

    const swapped = await outcome('--ladder', ladder, '--swap');
    expect(swapped.code).toBe(0);
    expect(swapped.stdout).toMatch(/^MISMATCH$/m);
    expect(swapped.stdout).toMatch(/^swapped: wrote \d+ players and \d+ game records/m);
    expect(swapped.stdout).toMatch(
      new RegExp(`^live now: .*sha256 ${checksums(good.stdout).rebuilt} match$`, 'm'),
    );

    const after = await outcome('--ladder', ladder);
    expect(after.code).toBe(0);
    expect(after.stdout).toMatch(/^match$/m);
    expect(checksums(after.stdout)).toEqual(checksums(good.stdout));
    // The swap wrote the same game records the service had, and left the other ladders alone.
    expect(await games()).toEqual(gamesBefore);
    expect(await otherLadders()).toEqual(othersBefore);

    const live = JSON.parse(await collectText(await exportStandings(sql, ladders, ladder)));
    const replayed = new ReplayEngine(ladders);
    for (const line of (await collectText(exportLog(sql, ladder))).split('\n'))
      replayed.ingestLine(line);
    const fromLog = JSON.parse([...replayed.render()].join(''));
    expect(live.ladders).toEqual(fromLog.ladders);
    expect(Object.keys(live.ladders[ladder].players).length).toBeGreaterThan(10);
  });

  it('when the ladder takes an event during a rebuild --swap, then nothing is swapped', async () => {
    const ladder = 'qq-xiangqi';
    await db.query(
      `UPDATE ladder_players SET wins = wins + 1
       WHERE ladder = $1 AND player = (SELECT player FROM ladder_players WHERE ladder = $1 ORDER BY player LIMIT 1)`,
      [ladder],
    );
    const corrupted = await outcome('--ladder', ladder);
    expect(corrupted.code).toBe(3);
    // A "rating service" holds the ladder's lock with one more event while the rebuild reads.
    const service = db.createQueryRunner();
    await service.connect();
    await service.startTransaction();
    await service.query('UPDATE ladders SET last_seq = last_seq + 1 WHERE ladder = $1', [ladder]);
    const child = spawn(
      process.execPath,
      ['bin/ranking.js', 'rebuild', '--ladder', ladder, '--swap'],
      {
        env: { ...process.env, DATABASE_URL: database.url },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = once(child, 'exit');
    await waitFor(() => stdout.includes('MISMATCH'), {
      timeout: 60_000,
      what: 'the rebuild to compare',
    });
    await service.commitTransaction();
    await service.release();
    const [code] = await exited;
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /ladder qq-xiangqi took events during the rebuild \(seq (\d+) -> \d+\); nothing swapped/,
    );
    expect(stdout).not.toMatch(/swapped/);
    const unchanged = await outcome('--ladder', ladder);
    expect(unchanged.code).toBe(3);
    expect(checksums(unchanged.stdout)).toEqual(checksums(corrupted.stdout));
    await db.query('UPDATE ladders SET last_seq = last_seq - 1 WHERE ladder = $1', [ladder]);
    expect((await outcome('--ladder', ladder, '--swap')).code).toBe(0);
    expect((await outcome('--ladder', ladder)).code).toBe(0);
  });

  it('refuses an unknown or missing ladder with a clear message', async () => {
    expect(await outcome('--ladder', 'no-such')).toMatchObject({
      code: 1,
      stderr: 'ranking: --ladder no-such: no such ladder\n',
    });
    const missing = await outcome();
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("'--ladder <id>' not specified");
  });
});
