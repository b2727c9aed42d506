import { createDataSource, GameRepository, type Sql, sqlOf } from '@ranking/persistence';
import { createTestDatabase } from '@ranking/testing';
import type { DataSource } from 'typeorm';

// Game records written by COPY (a transaction's connection offers `copyFrom`) and by the
// INSERT fallback (the data source's manager does not) read back as the same texts, whatever
// COPY's text format would otherwise take for a separator or an escape.

const awkward = ['tab\there', 'line\nbreak', 'cr\rhere', 'back\\slash', '\\N', '棋😀', 'q"uote'];
type Row = [string, string, string | null];
const games = (prefix: string): Row[] =>
  awkward.map((text, i) => [
    `${prefix}-${text}-${i}`,
    JSON.stringify([i, text, { t: text }]),
    // The saved skill estimates: a text, or null (a game stored before they existed).
    i % 2 === 0 ? null : `${1_700_000_000_000 + i}|25,8.333333333333334,${25 + i / 7},8.1`,
  ]);

describe('insertGames by COPY and by INSERT (real PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDataSource(database.url, 'copy-from');
    await db.initialize();
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  const stored = async (ladder: string): Promise<Row[]> => {
    const rows = await db.query<{ game_id: string; record: string; skill: string | null }[]>(
      'SELECT game_id, record, skill FROM ladder_games WHERE ladder = $1 ORDER BY game_id COLLATE "C"',
      [ladder],
    );
    return rows.map((r) => [r.game_id, r.record, r.skill]);
  };
  const sorted = (rows: Row[]) => [...rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

  it('writes the same rows either way, in the transaction that holds the COPY', async () => {
    let copied: Sql | undefined;
    await db.transaction(async (manager) => {
      copied = sqlOf(manager);
      expect('copyFrom' in copied).toBe(true);
      await new GameRepository(copied).insertGames('tab\tladder', games('c'));
    });
    expect('copyFrom' in sqlOf(db.manager)).toBe(false);
    await new GameRepository(sqlOf(db.manager)).insertGames('plain', games('c'));
    const viaCopy = await stored('tab\tladder');
    expect(viaCopy).toEqual(sorted(games('c')));
    expect(await stored('plain')).toEqual(viaCopy);
  });

  it('rolls the copied rows back with their transaction', async () => {
    await expect(
      db.transaction(async (manager) => {
        await new GameRepository(sqlOf(manager)).insertGames('rolled-back', games('r'));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await stored('rolled-back')).toEqual([]);
  });
});
