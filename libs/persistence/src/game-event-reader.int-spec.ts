import type { LadderEvent } from '@ranking/contracts';
import {
  createDataSource,
  EventStoreRepository,
  GameEventReader,
  sqlOf,
} from '@ranking/persistence';
import { createTestDatabase } from '@ranking/testing';
import type { DataSource } from 'typeorm';

// The stored game results as the integrity review and `ranking integrity --from-store` read
// them, against a real migrated database: every row, in each ladder's log order (seq as a
// number), across pages of 20,000, and from a position on.

const LADDER = 'igame-gomoku';
/** More than two pages, with seqs of every length from 1 to 5 digits. */
const EVENTS = 45_000;

const game = (ladder: string, seq: number): LadderEvent => ({
  id: `${ladder}-${seq}`,
  type: 'game.finished',
  ladder,
  gameId: `g-${seq}`,
  finishedAt: '2026-03-21T10:00:00+08:00',
  moves: 30,
  players: [
    { id: `a-${seq % 97}`, result: 'win' },
    { id: `b-${seq % 89}`, result: 'loss' },
  ],
});

describe('GameEventReader (real PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;

  const read = async (ladder: string | null, after?: string) => {
    const rows: { ladder: string; seq: number }[] = [];
    for await (const { seq, payload } of new GameEventReader(sqlOf(db.manager)).payloads(
      ladder,
      after,
    )) {
      const event = JSON.parse(payload) as LadderEvent;
      rows.push({ ladder: event.ladder, seq: Number(seq) });
      expect(event.id).toBe(`${event.ladder}-${seq}`);
    }
    return rows;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDataSource(database.url, 'game-event-reader');
    await db.initialize();
    for (let from = 1; from <= EVENTS; from += 15_000)
      await db.transaction((manager) =>
        new EventStoreRepository(sqlOf(manager)).appendEvents(
          Array.from({ length: 15_000 }, (_, i) => from + i).flatMap((seq) => [
            { ladder: LADDER, seq, event: game(LADDER, seq) },
            ...(seq <= 100 ? [{ ladder: 'qq-gomoku', seq, event: game('qq-gomoku', seq) }] : []),
          ]),
        ),
      );
  }, 120_000);
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  const seqs = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => from + i);

  it('Given a ladder of more than two pages, Then every row comes once, in seq order', async () => {
    const rows = await read(LADDER);
    expect(rows.map((r) => r.seq)).toEqual(seqs(1, EVENTS));
  });

  it('Given a position, Then only the rows after it come, in seq order', async () => {
    const rows = await read(LADDER, '9999');
    expect(rows.map((r) => r.seq)).toEqual(seqs(10_000, EVENTS));
  });

  it('Given no ladder, Then every ladder comes whole, ladder by ladder, each in seq order', async () => {
    const rows = await read(null);
    expect(rows).toEqual([
      ...seqs(1, EVENTS).map((seq) => ({ ladder: LADDER, seq })),
      ...seqs(1, 100).map((seq) => ({ ladder: 'qq-gomoku', seq })),
    ]);
  });
});
