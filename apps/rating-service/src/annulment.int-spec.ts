import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { LadderEvent, PlayerAnnulled } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import { ladderRegistry } from '@ranking/rating';
import { RatingScenario, readTopics, waitFor } from '@ranking/testing';

// RULES.md "Annulment" applied live: the rating service re-folds a ladder from its event store
// when a `player.annulled` arrives, and the state it exports equals the offline replay of the
// log it stored (and of the stream it was sent).

const run = promisify(execFile);
const ladders = ladderRegistry();
const LADDER = 'igame-gomoku';

const stream = [
  ...generateEvents({
    seed: 77,
    events: 2500,
    closes: true,
    badShare: 0.02,
    correctionShare: 0.02,
    days: 20,
    playersPerLadder: 40,
  }),
];
const parsed = stream.map((line) => {
  try {
    return JSON.parse(line) as LadderEvent;
  } catch {
    return null;
  }
});
/** The ladder's games, with their index in the stream. */
const games = parsed.flatMap((e, index) =>
  e?.type === 'game.finished' && e.ladder === LADDER ? [{ ...e, index }] : [],
);
/** The ladder's busiest player: the cheater. */
const cheater = (() => {
  const count = new Map<string, number>();
  for (const g of games) for (const p of g.players) count.set(p.id, (count.get(p.id) ?? 0) + 1);
  return [...count].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
})();
const annulment = (id: string, player: string, since: string, at: string): string =>
  JSON.stringify({
    id,
    type: 'player.annulled',
    ladder: LADDER,
    player,
    since,
    annulledAt: at,
    note: 'fair-play review',
  } satisfies PlayerAnnulled);

/** The cheater's games in the first 60 % of the stream, from the middle of that stretch on. */
const cut = Math.floor(stream.length * 0.6);
const early = games.filter((g) => g.index < cut);
const cheaterGames = early.filter((g) => g.players.some((p) => p.id === cheater));
const since = cheaterGames[Math.floor(cheaterGames.length / 2)]!.finishedAt;
const coveredGame = cheaterGames.at(-1)!;
const lastEarly = early.at(-1)!.finishedAt;

/** Sent first, and swapped in before the rest is sent (events meanwhile are provisional). */
const firstPart = [
  ...stream.slice(0, cut),
  annulment('annul-1', cheater, since, lastEarly),
  // A player the ladder never saw: accepted, covers nothing.
  annulment('annul-nobody', 'no-such-player', '2020-01-01T00:00:00Z', lastEarly),
];
const withAnnulments = [
  ...firstPart,
  // A correction of a covered game after the annulment: it changes nothing.
  JSON.stringify({
    id: 'correct-covered',
    type: 'game.corrected',
    ladder: LADDER,
    gameId: coveredGame.gameId,
    correctedAt: lastEarly,
    players: coveredGame.players.map((p) => ({
      id: p.id,
      result: p.result === 'win' ? 'loss' : p.result === 'loss' ? 'win' : 'draw',
    })),
    note: 'adjudicated',
  }),
  ...stream.slice(cut, Math.floor(stream.length * 0.8)),
  // The same player again, from the start: every earlier game of theirs is covered now.
  annulment('annul-2', cheater, '2000-01-01T00:00:00Z', games.at(-1)!.finishedAt),
  ...stream.slice(Math.floor(stream.length * 0.8)),
];

describe('annulment in the rating service (real Kafka and PostgreSQL)', () => {
  const world = new RatingScenario(ladders);
  beforeAll(() => world.setUp());
  afterAll(() => world.tearDown());

  const ratingOf = async (player: string): Promise<number> =>
    Number(
      (
        await world.db.query(
          'SELECT rating FROM ladder_players WHERE ladder = $1 AND player = $2',
          [LADDER, player],
        )
      )[0].rating,
    );

  it('given a stream with annulments, when the service drains it, then its state equals the replay of its log, with one history row per moved player and one summary each', async () => {
    expect(cheaterGames.length).toBeGreaterThan(4);
    const rating = world.service();
    rating.start();
    try {
      await world.produce(firstPart);
      await waitFor(() => world.drained(), {
        timeout: 120_000,
        interval: 250,
        what: 'the first part to drain and its annulments to be swapped in',
      });
      await world.produce(withAnnulments.slice(firstPart.length));
      await waitFor(() => world.drained(), {
        timeout: 120_000,
        interval: 250,
        what: 'the stream to drain',
      });
      await world.expectSameAsReplay(withAnnulments);

      // The first annulment moved players, each once, with the annulment as the cause.
      const history: { event_id: string; n: string; players: string }[] = await world.db.query(
        `SELECT event_id, count(*) AS n, count(DISTINCT player) AS players FROM rating_history
         WHERE event_id IN ('annul-1', 'annul-nobody', 'annul-2', 'correct-covered')
         GROUP BY event_id ORDER BY event_id`,
      );
      const moved = Object.fromEntries(history.map((h) => [h.event_id, Number(h.n)]));
      expect(moved['annul-1']).toBeGreaterThan(1);
      expect(moved['annul-2']).toBeGreaterThan(1);
      for (const h of history) expect(h.n).toBe(h.players);
      expect(moved['annul-nobody']).toBeUndefined();
      expect(moved['correct-covered']).toBeUndefined();

      // The cheater keeps none of the games since the second annulment's start.
      const cheaterRow: { games: number; wins: number; losses: number; draws: number }[] =
        await world.db.query(
          'SELECT games, wins, losses, draws FROM ladder_players WHERE ladder = $1 AND player = $2',
          [LADDER, cheater],
        );
      // The stream's lines after the second annulment (three lines were added before it).
      const later = games.filter(
        (g) =>
          g.index >= Math.floor(stream.length * 0.8) && g.players.some((p) => p.id === cheater),
      );
      expect(cheaterRow[0]!.games).toBeLessThanOrEqual(later.length);

      // One rating-changes message per annulment, a summary naming how many moved.
      await waitFor(
        async () => (await world.db.query('SELECT count(*) AS n FROM outbox'))[0].n === '0',
        { what: 'the outbox to empty' },
      );
      const read = await readTopics(world.kafka, [world.topics.ratingChanges]);
      const messages = [...read.get(world.topics.ratingChanges)!.values()]
        .flat()
        .map((m) => JSON.parse(m.value!.toString()) as { eventId: string; moved?: number });
      const summaries = messages.filter((m) => m.eventId.startsWith('annul-'));
      expect(summaries.map((m) => m.eventId).sort()).toEqual([
        'annul-1',
        'annul-2',
        'annul-nobody',
      ]);

      // Applied twice changes nothing: the annulment sent again is a duplicate.
      const before = await ratingOf(cheater);
      const stored = await world.storedEvents();
      await world.produce([withAnnulments.find((l) => l.includes('"annul-1"'))!]);
      await waitFor(() => world.drained(), { what: 'the repeat to drain' });
      expect(await world.storedEvents()).toBe(stored);
      expect(await ratingOf(cheater)).toBe(before);
      await world.expectSameAsReplay(withAnnulments);

      // `ranking annul --dry-run` says what an annulment would move; published, it moves that.
      const victim = games.at(-1)!.players.find((p) => p.id !== cheater)!.id;
      const cli = (...args: string[]) =>
        run(
          process.execPath,
          ['bin/ranking.js', 'annul', '--ladder', LADDER, '--player', victim, ...args],
          {
            env: {
              ...process.env,
              DATABASE_URL: world.databaseUrl,
              KAFKA_TOPIC_PREFIX: world.prefix,
              LOG_LEVEL: 'warn',
            },
          },
        );
      // `ranking rebuild` re-folds the stored log, annulments where they stand: it matches.
      const rebuilt = await run(
        process.execPath,
        ['bin/ranking.js', 'rebuild', '--ladder', LADDER],
        { env: { ...process.env, DATABASE_URL: world.databaseUrl, LOG_LEVEL: 'info' } },
      );
      expect(rebuilt.stderr).toMatch(/"message":"match"/);

      const since = ['--since', games[0]!.finishedAt, '--note', 'review 2'];
      const preview = JSON.parse((await cli(...since, '--dry-run')).stdout) as {
        moved: number;
        events: number;
        changes: { player: string; after: number }[];
      };
      expect(preview.events).toBe(
        Number(
          (
            await world.db.query('SELECT count(*) AS n FROM event_store WHERE ladder = $1', [
              LADDER,
            ])
          )[0].n,
        ),
      );
      expect(preview.moved).toBeGreaterThan(1);
      expect(await world.storedEvents()).toBe(stored);
      const id = (await cli(...since)).stdout.trim();
      expect(id).toMatch(/^annulment:igame-gomoku:/);
      await waitFor(
        async () => (await world.storedEvents()) === stored + 1 && (await world.drained()),
        { what: 'the published annulment to be swapped in' },
      );
      const rows: { player: string; after: string }[] = await world.db.query(
        `SELECT player, after FROM rating_history WHERE event_id = $1 ORDER BY player`,
        [id],
      );
      expect(rows.map((r) => [r.player, Number(r.after)])).toEqual(
        preview.changes.map((c) => [c.player, c.after]).sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
      );
      await world.expectLiveSameAsLog();
    } finally {
      await rating.stop();
    }
  }, 240_000);
});
