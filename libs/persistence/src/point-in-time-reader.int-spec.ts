import {
  createDataSource,
  exportLog,
  HistoryWithoutBoardFieldsError,
  PointInTimeReader,
  type Sql,
  sqlOf,
} from '@ranking/persistence';
import { collectText, createTestDatabase } from '@ranking/testing';
import type { DataSource } from 'typeorm';

// The rating history read as of an instant, against a real migrated database: rows written in
// the ladder's order with rising instants, as the rating service writes them.

const ladder = 'qq-gomoku';
const t = (minute: number) => new Date(Date.UTC(2026, 10, 29, 12, minute));

describe('PointInTimeReader (real PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;
  let sql: Sql;
  let reader: PointInTimeReader;

  /** A history row of the player with their board fields after it (null: an old row). */
  const row = (player: string, minute: number, after: number, games: number | null, seq = 0) =>
    db.query(
      `INSERT INTO rating_history (ladder, player, seq, event_id, before, after, delta, why, at,
         games, wins, losses, draws, rated_games, level)
       VALUES ($1, $2, $3, $4, 0, $5, 0, '{}', $6, $7, $7, 0, 0, $7, 25)`,
      [ladder, player, seq, `e-${player}-${minute}`, after, t(minute), games],
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDataSource(database.url, 'point-in-time');
    await db.initialize();
    sql = sqlOf(db.manager);
    reader = new PointInTimeReader(sql);
    for (const player of ['a', 'b', 'c', 'd'])
      await db.query(
        `INSERT INTO ladder_players (ladder, player, rating, games, wins, losses, draws, rated_games,
           disconnects, clean_streak, disconnect_penalties, level, territory, captures)
         VALUES ($1, $2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 25, false, 0)`,
        [ladder, player],
      );
    // A game of a and b at 12:01, a penalty of d (no games) at 12:02, a game of a and c at 12:04.
    await row('a', 1, 110, 1);
    await row('b', 1, 90, 1);
    await row('d', 2, -100, 0);
    await row('a', 4, 120, 2);
    await row('c', 4, 80, 1);
    // Another ladder's row in between: never part of this ladder's cut.
    await db.query(
      `INSERT INTO rating_history (ladder, player, seq, event_id, before, after, delta, why, at)
       VALUES ('qq-xiangqi', 'a', 1, 'x', 0, 1, 1, '{}', $1)`,
      [t(3)],
    );
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  const standingsAt = async (minute: number) => {
    const cut = await reader.cut(ladder, t(minute));
    if (cut === null) return null;
    const rows = await reader.standings(ladder, cut.id);
    return {
      at: cut.at.toISOString(),
      rows: rows
        .map((r) => `${r.player}:${r.rating}:${r.games}`)
        .sort()
        .join(' '),
    };
  };

  it('given an instant before the ladder’s first row, then no cut', async () => {
    expect(await standingsAt(0)).toBeNull();
  });

  it('given an instant, then each player’s latest row by then, only players with games, and the instant of the last change', async () => {
    expect(await standingsAt(1)).toEqual({ at: t(1).toISOString(), rows: 'a:110:1 b:90:1' });
    expect(await standingsAt(3)).toEqual({ at: t(2).toISOString(), rows: 'a:110:1 b:90:1' });
    expect(await standingsAt(59)).toEqual({
      at: t(4).toISOString(),
      rows: 'a:120:2 b:90:1 c:80:1',
    });
  });

  it('given rows written before history carried board fields, then a clear error rather than a wrong board', async () => {
    await row('b', 5, 95, null);
    const cut = await reader.cut(ladder, t(6));
    const error: unknown = await reader.standings(ladder, cut!.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HistoryWithoutBoardFieldsError);
    expect((error as Error).message).toMatch(
      /holds 1 player\(s\) whose last row was written before/,
    );
    // The instants before it are still answered.
    expect(await standingsAt(4)).toEqual({
      at: t(4).toISOString(),
      rows: 'a:120:2 b:90:1 c:80:1',
    });
  });

  it('knows who has ever played, whatever the instant', async () => {
    expect(await reader.known(ladder, 'c')).toBe(true);
    expect(await reader.known(ladder, 'nobody')).toBe(false);
  });

  it('exportLog with until gives each ladder’s events recorded by then, in log order', async () => {
    for (const [seq, minute] of [
      [1, 1],
      [2, 2],
      [3, 4],
    ] as const)
      await db.query(
        `INSERT INTO event_store (ladder, seq, event_id, type, payload, recorded_at)
         VALUES ($1, $2, $3, 'game.finished', $4, $5)`,
        [ladder, seq, `g${seq}`, `{"id":"g${seq}"}`, t(minute)],
      );
    const ids = async (until: Date | null) =>
      (await collectText(exportLog(sql, null, until))).split('\n').filter(Boolean);
    expect(await ids(t(0))).toEqual([]);
    expect(await ids(t(3))).toEqual(['{"id":"g1"}', '{"id":"g2"}']);
    expect(await ids(t(4))).toEqual(['{"id":"g1"}', '{"id":"g2"}', '{"id":"g3"}']);
    expect(await ids(null)).toHaveLength(3);
  });
});
