import { createDataSource } from '@ranking/persistence';
import type { DataSource } from 'typeorm';
import { createTestDatabase } from '../support/test-database.js';

describe('PostgreSQL (real database, migrated schema)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDataSource(database.url, 'smoke');
    await db.initialize();
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  it('has run every migration', async () => {
    expect(await db.showMigrations()).toBe(false);
    const rows: { name: string }[] = await db.query('SELECT name FROM schema_migrations');
    expect(rows.map((r) => r.name)).toContain('EventStore1764400000000');
  });

  it('given an event row, when it is read back, then the JSON text of its payload round-trips', async () => {
    const payload = { id: 'e-1', type: 'game.finished', ladder: 'qq-gomoku', moves: 41 };
    await db.query(
      'INSERT INTO event_store (ladder, seq, event_id, type, payload) VALUES ($1, 1, $2, $3, $4)',
      ['qq-gomoku', 'e-1', 'game.finished', JSON.stringify(payload)],
    );
    const rows: { payload: string }[] = await db.query(
      'SELECT payload FROM event_store WHERE event_id = $1',
      ['e-1'],
    );
    expect(rows.map((r) => JSON.parse(r.payload) as unknown)).toEqual([payload]);
  });

  it('refuses a second event with the same id', async () => {
    await expect(
      db.query(
        "INSERT INTO event_store (ladder, seq, event_id, type, payload) VALUES ('qq-gomoku', 2, 'e-1', 'x', '{}')",
      ),
    ).rejects.toThrow(/event_store_event_id_key/);
  });
});
