import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { generateEvents } from '@ranking/generator';
import {
  createDataSource,
  exportLog,
  exportStandings,
  LadderSnapshots,
  PgLadderStore,
  type Sql,
  sqlOf,
} from '@ranking/persistence';
import { foldFromStore, ladderRegistry, ReplayEngine } from '@ranking/rating';
import {
  collectText,
  createTestDatabase,
  jsonLines,
  type LogLine,
  waitFor,
} from '@ranking/testing';
import type { DataSource } from 'typeorm';
import { storeLog } from './stored-log.js';

const run = promisify(execFile);
const ladders = ladderRegistry();

/** `ranking rebuild` on a database the rating service's batch code filled. */
describe('ranking rebuild (real PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;
  const sql: Sql = { query: (text, params) => db.query(text, params) };
  const rebuild = (...args: string[]) =>
    run(process.execPath, ['bin/ranking.js', 'rebuild', ...args], {
      env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'info' },
    });
  /** Exit code and log lines (JSON on stderr: no terminal here), whether it failed or not. */
  const outcome = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await rebuild(...args);
      return { code: 0, stdout, log: jsonLines(stderr) };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, log: jsonLines(e.stderr) };
    }
  };
  const checksums = (log: LogLine[]) => ({
    rebuilt: log.find((l) => l.table === 'rebuilt')?.sha256,
    live: log.find((l) => l.table === 'live')?.sha256,
  });
  const messages = (log: LogLine[]) => log.map((l) => l.message);

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
    await storeLog(db, ladders, lines, 250);
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
      const { code, stdout, log } = await outcome('--ladder', ladder);
      expect({ ladder, code }).toEqual({ ladder, code: 0 });
      expect(stdout).toBe('');
      expect(log[0]).toMatchObject({
        level: 'info',
        context: 'rebuild',
        message: expect.stringMatching(
          new RegExp(`^ladder ${ladder}: re-folded [1-9]\\d* events .* events/s\\)$`),
        ),
        ladder,
        events: expect.any(Number),
      });
      expect(log.at(-1)).toMatchObject({ level: 'info', message: 'match', ladder, match: true });
      const { rebuilt, live } = checksums(log);
      expect(rebuilt).toMatch(/^[0-9a-f]{64}$/);
      expect(live).toBe(rebuilt);
      expect(log.filter((l) => l.level !== 'info')).toEqual([]);
    }
    // Nothing to repair: --swap leaves the tables alone.
    const kept = await outcome('--ladder', folded[0]!, '--swap');
    expect(kept.code).toBe(0);
    expect(messages(kept.log)).toContain('match');
    expect(messages(kept.log).join('\n')).not.toMatch(/swapped/);
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
    expect(bad.log.at(-1)).toMatchObject({ level: 'warn', message: 'MISMATCH', match: false });
    expect(checksums(bad.log).rebuilt).toBe(checksums(good.log).rebuilt);
    expect(checksums(bad.log).live).not.toBe(checksums(bad.log).rebuilt);
    expect(messages(bad.log).join('\n')).not.toMatch(/swapped/);

    const swapped = await outcome('--ladder', ladder, '--swap');
    expect(swapped.code).toBe(0);
    expect(messages(swapped.log)).toContain('MISMATCH');
    expect(messages(swapped.log).join('\n')).toMatch(
      /^swapped: wrote \d+ players and \d+ game records/m,
    );
    expect(swapped.log.at(-1)).toMatchObject({
      level: 'info',
      message: expect.stringMatching(
        new RegExp(`^live now: \\d+ players, sha256 ${String(checksums(good.log).rebuilt)} match$`),
      ),
      sha256: checksums(good.log).rebuilt,
      match: true,
    });

    const after = await outcome('--ladder', ladder);
    expect(after.code).toBe(0);
    expect(messages(after.log)).toContain('match');
    expect(checksums(after.log)).toEqual(checksums(good.log));
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
        env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'info' },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = once(child, 'exit');
    await waitFor(() => stderr.includes('"MISMATCH"'), {
      timeout: 60_000,
      what: 'the rebuild to compare',
    });
    await service.commitTransaction();
    await service.release();
    const [code] = await exited;
    expect(code).toBe(1);
    const log = jsonLines(stderr);
    expect(log.at(-1)).toMatchObject({
      level: 'error',
      context: 'ranking',
      message: expect.stringMatching(
        /^ladder qq-xiangqi took events during the rebuild \(seq (\d+) -> \d+\); nothing swapped/,
      ),
      command: 'rebuild',
      exitCode: 1,
    });
    expect(messages(log).join('\n')).not.toMatch(/swapped:/);
    expect(stdout).toBe('');
    const unchanged = await outcome('--ladder', ladder);
    expect(unchanged.code).toBe(3);
    expect(checksums(unchanged.log)).toEqual(checksums(corrupted.log));
    await db.query('UPDATE ladders SET last_seq = last_seq - 1 WHERE ladder = $1', [ladder]);
    expect((await outcome('--ladder', ladder, '--swap')).code).toBe(0);
    expect((await outcome('--ladder', ladder)).code).toBe(0);
  });

  it('given a snapshot in the store, then rebuild starts from it, matches, finds and repairs a mismatch, and a snapshot of another format is not used', async () => {
    const [{ ladder, last }] = await db.query<[{ ladder: string; last: number }]>(
      'SELECT ladder, last_seq::int AS last FROM ladders ORDER BY last_seq DESC, ladder LIMIT 1',
    );
    const at = Math.floor(last * 0.6);
    // Written as the rating service's refold thread writes one.
    const { fold } = await db.transaction('REPEATABLE READ', (manager) =>
      foldFromStore(new PgLadderStore(sqlOf(manager), ladders), ladders.get(ladder)!, {
        upTo: at,
      }),
    );
    const [{ event_id }] = await db.query<[{ event_id: string }]>(
      'SELECT event_id FROM event_store WHERE ladder = $1 AND seq = $2',
      [ladder, at],
    );
    await db.transaction((manager) => new LadderSnapshots(sqlOf(manager)).save(fold, event_id));
    const started = (log: LogLine[]) => log[0]!;

    const fromSnapshot = await outcome('--ladder', ladder);
    expect(fromSnapshot.code).toBe(0);
    expect(started(fromSnapshot.log)).toMatchObject({
      message: expect.stringMatching(
        new RegExp(
          `^ladder ${ladder}: re-folded ${last - at} events from the snapshot at position ${at} to position ${last} in .* events/s\\)$`,
        ),
      ),
      from: at,
      position: last,
      events: last - at,
    });
    expect(fromSnapshot.log.at(-1)).toMatchObject({ message: 'match', match: true });
    const fromStart = await outcome('--ladder', ladder, '--from-start');
    expect(fromStart.code).toBe(0);
    expect(started(fromStart.log)).toMatchObject({
      message: expect.stringMatching(/ from the log's start to position /),
      from: 0,
      events: last,
    });
    expect(checksums(fromStart.log)).toEqual(checksums(fromSnapshot.log));

    // A corrupted player: the rebuild from the snapshot names it, and its swap repairs it.
    const games = (): Promise<unknown[]> =>
      db.query(
        'SELECT game_id, record, skill FROM ladder_games WHERE ladder = $1 ORDER BY game_id',
        [ladder],
      );
    const gamesBefore = await games();
    const [{ player }] = await db.query<[{ player: string }]>(
      'SELECT player FROM ladder_players WHERE ladder = $1 ORDER BY player DESC LIMIT 1',
      [ladder],
    );
    await db.query(
      'UPDATE ladder_players SET games = games + 1 WHERE ladder = $1 AND player = $2',
      [ladder, player],
    );
    const bad = await outcome('--ladder', ladder);
    expect(bad.code).toBe(3);
    expect(bad.log.at(-1)).toMatchObject({
      level: 'warn',
      message: 'MISMATCH',
      match: false,
      differ: 1,
      differing: [player],
    });
    const swapped = await outcome('--ladder', ladder, '--swap');
    expect(swapped.code).toBe(0);
    expect(started(swapped.log)).toMatchObject({ from: at });
    expect(swapped.log.at(-1)).toMatchObject({
      sha256: checksums(fromStart.log).rebuilt,
      match: true,
    });
    expect(await games()).toEqual(gamesBefore);
    expect((await outcome('--ladder', ladder, '--from-start')).code).toBe(0);

    // A snapshot this code cannot read (an older format): the rebuild starts from the log's start.
    await db.query('UPDATE ladder_snapshots SET format = 0 WHERE ladder = $1', [ladder]);
    const unreadable = await outcome('--ladder', ladder);
    expect(unreadable.code).toBe(0);
    expect(started(unreadable.log)).toMatchObject({ from: 0, events: last });
    expect(checksums(unreadable.log)).toEqual(checksums(fromStart.log));
    await db.query('DELETE FROM ladder_snapshots WHERE ladder = $1', [ladder]);
  });

  it('refuses an unknown or missing ladder with a clear message', async () => {
    const unknown = await outcome('--ladder', 'no-such');
    expect(unknown.code).toBe(1);
    expect(unknown.log).toEqual([
      {
        time: expect.any(String),
        level: 'error',
        context: 'ranking',
        message: '--ladder no-such: no such ladder',
        command: 'rebuild',
        exitCode: 1,
      },
    ]);
    const missing = await outcome();
    expect(missing.code).not.toBe(0);
    expect(missing.log).toMatchObject([
      { level: 'error', message: "required option '--ladder <id>' not specified" },
    ]);
  });
});
