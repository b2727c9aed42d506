import { type BoardStanding, readRatingChanges, TOPICS } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import {
  createDataSource,
  exportLog,
  exportStandings,
  MessageLog,
  OffsetStore,
  preparedSqlOf,
  type RawMessage,
  type Sql,
} from '@ranking/persistence';
import { ladderRegistry, ReplayEngine } from '@ranking/rating';
import type { DataSource } from 'typeorm';
import { collectText, createTestDatabase } from '@ranking/testing';
import { handleBatchGroup, handlePartitionBatch } from './partition-batch.js';

const ladders = ladderRegistry();

describe('rating service batches (real PostgreSQL, no Kafka)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;
  // As the service runs them: prepared statements, appends by COPY.
  const inTransaction = <T>(work: (sql: Sql) => Promise<T>) =>
    db.transaction((manager) => work(preparedSqlOf(manager)));

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDataSource(database.url, 'batch-test');
    await db.initialize();
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  const lines = [
    ...generateEvents({
      seed: 21,
      events: 4000,
      closes: true,
      badShare: 0.04,
      correctionShare: 0.02,
      days: 20,
    }),
  ];
  const messages: RawMessage[] = lines.map((line, i) => ({
    topic: TOPICS.ladderEvents,
    partition: 0,
    offset: String(i),
    key: Buffer.from('k'),
    value: Buffer.from(line),
  }));

  it('given a generated stream in uneven batches, then PostgreSQL holds what the offline replay computes', async () => {
    for (
      let at = 0, size = 1;
      at < messages.length;
      at += size, size = ((size * 7 + 13) % 400) + 1
    ) {
      await inTransaction((sql) =>
        handlePartitionBatch(sql, ladders, TOPICS.ladderEvents, 0, messages.slice(at, at + size)),
      );
    }
    const offline = new ReplayEngine(ladders);
    for (const line of lines) offline.ingestLine(line);
    const expected = JSON.parse([...offline.render()].join(''));

    const live = JSON.parse(
      await inTransaction(async (sql) => collectText(await exportStandings(sql, ladders, null))),
    );
    expect(live.ladders).toEqual(expected.ladders);
    expect(live.rejected).toEqual(expected.rejected);
    // The live void list is in log order (ladder by ladder); the stream's is in arrival order.
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
    expect([...live.void].sort(byId)).toEqual([...expected.void].sort(byId));

    // The exported log replays to the same standings (it holds accepted events only).
    const log = await inTransaction((sql) => collectText(exportLog(sql, null)));
    const replayed = new ReplayEngine(ladders);
    for (const line of log.split('\n')) replayed.ingestLine(line);
    const fromLog = JSON.parse([...replayed.render()].join(''));
    expect(fromLog.ladders).toEqual(live.ladders);
    expect(fromLog.void).toEqual(live.void);
    expect(fromLog.rejected).toEqual([]);
  });

  it('when the same messages are delivered again, then nothing changes', async () => {
    const before = await inTransaction(async (sql) =>
      collectText(await exportStandings(sql, ladders, null)),
    );
    const counts = await db.query(
      'SELECT (SELECT count(*) FROM event_store) AS events, (SELECT count(*) FROM rating_history) AS history, (SELECT count(*) FROM outbox) AS outbox',
    );
    const again = await inTransaction((sql) =>
      handlePartitionBatch(sql, ladders, TOPICS.ladderEvents, 0, messages.slice(1000, 1500)),
    );
    expect(again).toMatchObject({ accepted: 0, skipped: 500 });
    expect(
      await inTransaction(async (sql) => collectText(await exportStandings(sql, ladders, null))),
    ).toBe(before);
    expect(
      await db.query(
        'SELECT (SELECT count(*) FROM event_store) AS events, (SELECT count(*) FROM rating_history) AS history, (SELECT count(*) FROM outbox) AS outbox',
      ),
    ).toEqual(counts);
  });

  it('dead-letters every rejected message unchanged, with its reason, through the outbox', async () => {
    const { messages: waiting } = await inTransaction((sql) =>
      new MessageLog(sql).claimOutbox(1_000_000),
    );
    const rows = waiting
      .filter((m) => m.topic === TOPICS.deadLetter)
      .map((m) => ({ reason: m.headers['x-reject-reason'], value: Buffer.from(m.value ?? '') }));
    const rejected: { reason: string; offset: string }[] = await db.query(
      'SELECT reason, "offset" FROM rejected_messages ORDER BY id',
    );
    expect(rows.map((r) => r.reason)).toEqual(rejected.map((r) => r.reason));
    rejected.forEach((r, i) =>
      expect(rows[i]!.value.toString('utf8')).toBe(lines[Number(r.offset)]),
    );
    expect(new Set(rejected.map((r) => r.reason))).toEqual(
      new Set([
        'invalid-json',
        'invalid-event',
        'unknown-ladder',
        'wrong-player-count',
        'duplicate-player',
        'inconsistent-result',
        'unknown-game',
      ]),
    );
  });

  it('each rating-changes message names its ladder’s previous message, and the rows it lists, applied in order, are the live rows of PostgreSQL', async () => {
    const { messages: waiting } = await inTransaction((sql) =>
      new MessageLog(sql).claimOutbox(1_000_000),
    );
    const sent = waiting
      .filter((m) => m.topic === TOPICS.ratingChanges)
      .map((m) => {
        const read = readRatingChanges(m.value);
        if (!read.ok) throw new Error(read.reason);
        return read.message;
      });
    type Row = { rating: number; standing: BoardStanding; skill?: { mu: number; sigma: number } };
    const boards = new Map<string, Map<string, Row>>();
    const previous = new Map<string, number>();
    const summarised = new Set<string>();
    for (const message of sent) {
      // In log order per ladder, each naming the one before it (0: none), seqs with holes.
      expect(message.previousSeq).toBe(previous.get(message.ladder) ?? 0);
      previous.set(message.ladder, message.seq);
      const board = boards.get(message.ladder) ?? new Map<string, Row>();
      boards.set(message.ladder, board);
      if ('summary' in message) {
        // Lists nobody: a reader reads the ladder from PostgreSQL.
        summarised.add(message.ladder);
        board.clear();
        continue;
      }
      for (const c of message.changes) {
        const skill = c.skill ?? board.get(c.player)?.skill;
        board.set(c.player, { rating: c.after, standing: c.standing, ...(skill ? { skill } : {}) });
      }
    }
    const holes = sent.filter((m) => m.seq > m.previousSeq + 1).length;
    expect(holes).toBeGreaterThan(0);
    const counters = await db.query<{ ladder: string; last_message_seq: string }[]>(
      'SELECT ladder, last_message_seq FROM ladders',
    );
    for (const c of counters)
      expect([c.ladder, Number(c.last_message_seq)]).toEqual([
        c.ladder,
        previous.get(c.ladder) ?? 0,
      ]);

    const live = await db.query<
      {
        ladder: string;
        player: string;
        rating: number;
        games: number;
        wins: number;
        losses: number;
        draws: number;
        rated_games: number;
        level: number;
        skill_mu: number | null;
        skill_sigma: number | null;
      }[]
    >(
      'SELECT ladder, player, rating, games, wins, losses, draws, rated_games, level, skill_mu, skill_sigma FROM ladder_players WHERE games > 0',
    );
    let compared = 0;
    let withSkill = 0;
    for (const r of live) {
      const row = boards.get(r.ladder)?.get(r.player);
      // After a summary, only the players listed since are known from the messages.
      if (row === undefined && summarised.has(r.ladder)) continue;
      expect({ ladder: r.ladder, player: r.player, ...row }).toEqual({
        ladder: r.ladder,
        player: r.player,
        rating: r.rating,
        standing: {
          games: r.games,
          wins: r.wins,
          losses: r.losses,
          draws: r.draws,
          ratedGames: r.rated_games,
          level: r.level,
        },
        ...(row?.skill ? { skill: { mu: r.skill_mu, sigma: r.skill_sigma } } : {}),
      });
      compared++;
      if (row?.skill) withSkill++;
    }
    expect(compared).toBeGreaterThan(live.length / 2);
    // Every player's estimate came with a game of theirs.
    expect(withSkill).toBe(compared);
  });

  it('when the stored checkpoint lies beyond the end of the log (a recreated topic), then the partition is read again from its start', async () => {
    const fresh = [
      ...generateEvents({ seed: 77, events: 20, days: 1, start: '2028-01-01T00:00:00+08:00' }),
    ].map((line, i) => ({
      topic: TOPICS.ladderEvents,
      partition: 5,
      offset: String(i),
      key: null,
      value: Buffer.from(line),
    }));
    await inTransaction((sql) =>
      new OffsetStore(sql).saveMany('rating-service', TOPICS.ladderEvents, new Map([[5, 5000n]])),
    );
    // Without the log's end, the old checkpoint would hide everything the new log holds...
    expect(
      await inTransaction((sql) =>
        handlePartitionBatch(sql, ladders, TOPICS.ladderEvents, 5, fresh),
      ),
    ).toMatchObject({ accepted: 0, skipped: 20, logRecreated: false });
    // ...with it, the checkpoint is known to belong to a log that is gone.
    const result = await inTransaction((sql) =>
      handlePartitionBatch(sql, ladders, TOPICS.ladderEvents, 5, fresh, { logEnd: 20n }),
    );
    expect(result).toMatchObject({ logRecreated: true, skipped: 0, nextOffset: 20n });
    expect(result.accepted).toBeGreaterThan(10);
    expect(result.accepted + result.rejected + result.duplicates).toBe(20);
    // Read once: delivered again, it changes nothing.
    expect(
      await inTransaction((sql) =>
        handlePartitionBatch(sql, ladders, TOPICS.ladderEvents, 5, fresh, { logEnd: 20n }),
      ),
    ).toMatchObject({ accepted: 0, skipped: 20, logRecreated: false });
  });

  it('given one fetch of several partitions in one transaction (a group commit), then each checkpoint moves on its own and the partitions apply in order', async () => {
    const lines = [
      ...generateEvents({ seed: 78, events: 60, days: 1, start: '2029-01-01T00:00:00+08:00' }),
    ];
    const part = (partition: number, from: number, to: number) =>
      lines.slice(from, to).map((line, i) => ({
        topic: TOPICS.ladderEvents,
        partition,
        offset: String(i),
        key: null,
        value: Buffer.from(line),
      }));
    const batches = [
      { partition: 9, messages: part(9, 50, 60) },
      { partition: 7, messages: part(7, 0, 30) },
      { partition: 8, messages: part(8, 30, 50) },
    ];
    // Partition 8 was read up to offset 10 before (say, before a crash).
    await inTransaction((sql) =>
      new OffsetStore(sql).saveMany('rating-service', TOPICS.ladderEvents, new Map([[8, 10n]])),
    );
    const result = await inTransaction((sql) =>
      handleBatchGroup(sql, ladders, TOPICS.ladderEvents, batches),
    );
    expect(result.skipped).toBe(10);
    expect(result.accepted + result.rejected + result.duplicates).toBe(50);
    expect(result.nextOffsets).toEqual(
      new Map([
        [7, 30n],
        [8, 20n],
        [9, 10n],
      ]),
    );
    const stored = await inTransaction((sql) =>
      new OffsetStore(sql).all('rating-service', TOPICS.ladderEvents),
    );
    expect([7, 8, 9].map((p) => stored.get(p))).toEqual([30n, 20n, 10n]);
    // Partitions apply in partition order, each in offset order: per ladder, the sequence
    // follows (partition, offset).
    // (A repeated id is applied once, where it first appears.)
    const applied = [
      ...new Set(
        [...lines.slice(0, 30), ...lines.slice(40, 60)].map(
          (line) => /"id":"([^"]+)"/.exec(line)![1]!,
        ),
      ),
    ];
    const rows = await db.query<{ event_id: string; ladder: string; seq: string }[]>(
      'SELECT event_id, ladder, seq FROM event_store WHERE event_id = ANY($1)',
      [applied],
    );
    const seqOf = new Map(rows.map((r) => [r.event_id, Number(r.seq)]));
    const last = new Map<string, number>();
    for (const id of applied.filter((id) => seqOf.has(id))) {
      const ladder = rows.find((r) => r.event_id === id)!.ladder;
      expect(seqOf.get(id)!).toBeGreaterThan(last.get(ladder) ?? 0);
      last.set(ladder, seqOf.get(id)!);
    }
    expect(seqOf.size).toBe(result.accepted);
    // The skipped part of partition 8 was never applied; delivered again, the group changes nothing.
    const skipped = lines.slice(30, 40).map((line) => /"id":"([^"]+)"/.exec(line)![1]!);
    expect(await db.query('SELECT 1 FROM event_store WHERE event_id = ANY($1)', [skipped])).toEqual(
      [],
    );
    expect(
      await inTransaction((sql) => handleBatchGroup(sql, ladders, TOPICS.ladderEvents, batches)),
    ).toMatchObject({ accepted: 0, skipped: 60 });
  });
});
