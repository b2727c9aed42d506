import { DEAD_LETTER_HEADERS, instantMillis } from '@ranking/contracts';
import { exportStandings } from '@ranking/persistence';
import { ladderRegistry } from '@ranking/rating';
import {
  BOUNDARY_EDGES,
  collectText,
  RatingScenario,
  readTopics,
  sizedValue,
  waitFor,
} from '@ranking/testing';

const ladders = ladderRegistry();

// Issue 29 through the built rating service on real Kafka and PostgreSQL: a late capture game is
// capped by its own day however late it comes (corrections too), instants with any fraction are
// placed by their first three digits next to daily, weekly and monthly boundaries, and a value
// over 65,536 bytes is invalid-event with a null id. The live state must equal the offline
// replay of the same stream, and the numbers RULES.md gives.

let n = 0;
const DAY = '2026-03-02';
const nextDay = (key: string): string => {
  const d = new Date(`${key}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};

const capture = (
  alice: string,
  captures: number,
  finishedAt: string,
  gameId = `g-${++n}`,
): string =>
  JSON.stringify({
    id: `e-${++n}`,
    type: 'game.finished',
    ladder: 'xinbo-go',
    gameId,
    finishedAt,
    moves: 40,
    context: { kind: 'capture', captureTarget: 5 },
    players: [
      { id: alice, result: 'win', captures },
      { id: `${alice}-opponent`, result: 'loss', captures: 0 },
    ],
  });

const correction = (gameId: string, alice: string, captures: number): string =>
  JSON.stringify({
    id: `c-${++n}`,
    type: 'game.corrected',
    ladder: 'xinbo-go',
    gameId,
    correctedAt: '2026-03-20T12:00:00+08:00',
    players: [
      { id: alice, result: 'win', captures },
      { id: `${alice}-opponent`, result: 'loss', captures: 0 },
    ],
    note: 'adjudication',
  });

const close = (ladder: string, period: string, key: string): string =>
  JSON.stringify({
    id: `period.closed:${ladder}:${period}:${key}`,
    type: 'period.closed',
    ladder,
    period,
    key,
    start: '2026-01-01T00:00:00Z',
    end: '2026-01-01T00:00:00Z',
  });

const igame = (player: string, finishedAt: string): string =>
  JSON.stringify({
    id: `e-${++n}`,
    type: 'game.finished',
    ladder: 'igame-gomoku',
    gameId: `g-${n}`,
    finishedAt,
    moves: 40,
    players: [
      { id: player, result: 'win' },
      { id: `${player}-opponent-${n}`, result: 'loss' },
    ],
  });

const qqGame = (id: string) => ({
  id,
  type: 'game.finished',
  ladder: 'qq-gomoku',
  gameId: `g-${id}`,
  finishedAt: '2026-03-02T10:00:00+08:00',
  moves: 40,
  players: [
    { id: `${id}-ann`, result: 'win' },
    { id: `${id}-bob`, result: 'loss' },
  ],
});

/** Late games: for each lateness, `late-N` (a second late game too) and `corr-N` (corrections). */
function lateGames(): string[] {
  const lines: string[] = [];
  const lates = [1, 2, 10];
  for (const late of lates) {
    lines.push(capture(`late-${late}`, 8, `${DAY}T10:00:00+08:00`));
    lines.push(capture(`corr-${late}`, 8, `${DAY}T10:00:00+08:00`, `first-${late}`));
  }
  let key = DAY;
  let closedAfter = -1;
  for (const late of lates) {
    // Close the game's day and `late` days after it.
    while (closedAfter < late) {
      lines.push(close('xinbo-go', 'daily', key));
      key = nextDay(key);
      closedAfter++;
    }
    lines.push(capture(`late-${late}`, 5, `${DAY}T23:00:00+08:00`)); // 8 + min(5, 2)
    lines.push(capture(`late-${late}`, 5, `${nextDay(DAY)}T05:59:59.999999999+08:00`)); // + 0
    lines.push(capture(`corr-${late}`, 5, `${DAY}T23:00:00+08:00`, `late-${late}`)); // 8 + 2
    lines.push(correction(`late-${late}`, `corr-${late}`, 9)); // from the saved tally 8: 2
    lines.push(correction(`late-${late}`, `corr-${late}`, 1)); // 1 valid: 9
    lines.push(correction(`first-${late}`, `corr-${late}`, 3)); // from 0: 3 valid: 4
    lines.push(capture(`corr-${late}`, 10, `${DAY}T23:30:00+08:00`)); // 4 + min(10, 6) = 10
  }
  return lines;
}

/** Games at the edges of each boundary (test/support/instant-edges.ts), then the closes. */
function edgeGames(): string[] {
  const [daily, weekly, monthly] = BOUNDARY_EDGES;
  const lines: string[] = [];
  daily!.before.forEach((at, i) => {
    lines.push(capture(`day-before-${i}`, 8, '2026-03-07T10:00:00+08:00'));
    lines.push(capture(`day-before-${i}`, 5, at)); // same day: 8 + 2
  });
  daily!.after.forEach((at, i) => {
    lines.push(capture(`day-after-${i}`, 8, '2026-03-07T10:00:00+08:00'));
    lines.push(capture(`day-after-${i}`, 5, at)); // next day: 8 + 5
  });
  const players = (what: string, edges: readonly string[]) =>
    edges.map((at, i) => ({ player: `${what}-${i}`, at }));
  const monthPlayers = [
    ...players('month-before', monthly!.before),
    ...players('month-after', monthly!.after),
  ];
  for (const { player } of monthPlayers) lines.push(igame(player, '2026-02-10T12:00:00+08:00'));
  for (const { player, at } of [
    ...players('week-before', weekly!.before),
    ...players('week-after', weekly!.after),
  ]) {
    for (let day = 3; day <= 8; day++) lines.push(igame(player, `2026-03-0${day}T12:00:00+08:00`));
    lines.push(igame(player, at));
  }
  lines.push(close('igame-gomoku', 'weekly', '2026-W10'));
  for (const { player, at } of monthPlayers) lines.push(igame(player, at));
  lines.push(close('igame-gomoku', 'monthly', '2026-03'));
  return lines;
}

const sizedLines = [
  sizedValue(qqGame('fits-ascii'), 65_536, 'ascii'),
  sizedValue(qqGame('fits-cjk'), 65_536, 'cjk'),
  sizedValue(qqGame('over-ascii'), 65_537, 'ascii'),
  sizedValue(qqGame('over-cjk'), 65_537, 'cjk'),
];

describe('rating service: late games, instant edges and the size limit (real Kafka and PostgreSQL)', () => {
  const world = new RatingScenario(ladders);
  beforeAll(() => world.setUp());
  afterAll(() => world.tearDown());

  const lines = [...lateGames(), ...edgeGames(), ...sizedLines];

  it('given late capture games, edge instants and values at the size limit, when the service drains them, then it decides as RULES.md and the offline replay do', async () => {
    const rating = world.service();
    rating.start();
    try {
      await world.produce(lines);
      await waitFor(() => world.drained(), {
        timeout: 90_000,
        interval: 250,
        what: 'the stream to drain',
      });
      await world.expectSameAsReplay(lines);

      type Live = {
        ladders: Record<string, { players: Record<string, { rating: number; captures?: number }> }>;
        rejected: { id: string | null; reason: string }[];
      };
      const live = JSON.parse(
        await collectText(await exportStandings(world.sql, ladders, null)),
      ) as Live;
      const xinbo = live.ladders['xinbo-go']!.players;
      for (const late of [1, 2, 10]) {
        expect([late, xinbo[`late-${late}`]!.captures]).toEqual([late, 10]);
        expect([late, xinbo[`corr-${late}`]!.captures]).toEqual([late, 10]);
      }
      const [daily, weekly, monthly] = BOUNDARY_EDGES;
      daily!.before.forEach((_, i) => expect(xinbo[`day-before-${i}`]!.captures).toBe(10));
      daily!.after.forEach((_, i) => expect(xinbo[`day-after-${i}`]!.captures).toBe(13));
      const igame = live.ladders['igame-gomoku']!.players;
      const ratingOf = (player: string) => igame[player]!.rating;
      // The same games either side of the boundary: only the close's penalty differs.
      weekly!.after.forEach((_, i) =>
        expect(ratingOf(`week-after-${i}`)).toBe(ratingOf('week-before-0') - 30),
      );
      weekly!.before.forEach((_, i) =>
        expect(ratingOf(`week-before-${i}`)).toBe(ratingOf('week-before-0')),
      );
      monthly!.after.forEach((_, i) =>
        expect(ratingOf(`month-after-${i}`)).toBe(ratingOf('month-before-0') - 200),
      );
      monthly!.before.forEach((_, i) =>
        expect(ratingOf(`month-before-${i}`)).toBe(ratingOf('month-before-0')),
      );

      // The values at the limit are applied; those one byte over it are invalid-event, id null.
      expect(live.ladders['qq-gomoku']!.players['fits-ascii-ann']).toBeDefined();
      expect(live.ladders['qq-gomoku']!.players['fits-cjk-ann']).toBeDefined();
      expect(live.rejected).toEqual([
        { id: null, reason: 'invalid-event' },
        { id: null, reason: 'invalid-event' },
      ]);
      const rejected = await world.db.query(
        'SELECT event_id, reason, detail, length(value) AS bytes FROM rejected_messages ORDER BY id',
      );
      expect(rejected).toEqual([
        {
          event_id: null,
          reason: 'invalid-event',
          detail: 'the value is 65537 bytes, over the limit of 65536',
          bytes: 65_537,
        },
        {
          event_id: null,
          reason: 'invalid-event',
          detail: 'the value is 65537 bytes, over the limit of 65536',
          bytes: 65_537,
        },
      ]);
      await waitFor(
        async () => (await world.db.query('SELECT count(*) AS n FROM outbox'))[0].n === '0',
        { what: 'the outbox to empty' },
      );
      const dead = [
        ...(await readTopics(world.kafka, [world.topics.deadLetter]))
          .get(world.topics.deadLetter)!
          .values(),
      ].flat();
      expect(dead.map((m) => m.value?.toString('utf8')).sort()).toEqual(
        [sizedLines[2], sizedLines[3]].sort(),
      );
      for (const m of dead) expect(m.headers[DEAD_LETTER_HEADERS.reason]).toBe('invalid-event');

      // The store keeps each instant as it came: nothing rounds it across the boundary.
      const stored: { payload: string }[] = await world.db.query(
        "SELECT payload FROM event_store WHERE ladder = 'igame-gomoku' AND type = 'game.finished'",
      );
      const storedAt = stored.map(
        (r) => (JSON.parse(r.payload) as { finishedAt: string }).finishedAt,
      );
      for (const at of [...weekly!.before, ...monthly!.before]) {
        expect(storedAt).toContain(at);
        expect(instantMillis(at) % 1000).toBe(999);
      }
    } finally {
      await rating.stop();
    }
  }, 180_000);
});
