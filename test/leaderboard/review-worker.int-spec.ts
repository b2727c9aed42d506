/* eslint-disable @typescript-eslint/no-explicit-any -- the routes' JSON answers are read untyped */
import { type LadderEvent, validateEvent } from '@ranking/contracts';
import { plantWinTrading } from '@ranking/generator';
import { issueServiceToken } from '@ranking/ingestion';
import {
  DuelCollector,
  gameEventOf,
  integrityReport,
  LadderDuels,
  duelsOf,
  WIN_TRADING_DEFAULTS,
} from '@ranking/integrity';
import { PROBE_PATHS } from '@ranking/operations';
import {
  EventStoreRepository,
  PgLadderStore,
  ServiceTokenRepository,
  sqlOf,
} from '@ranking/persistence';
import { annulmentPreview, ladderRegistry, PeriodCalendar } from '@ranking/rating';
import { probe, sample, waitFor } from '@ranking/testing';
import pg from 'pg';
import { LeaderboardWorld } from './leaderboard-world.js';

const LADDER = 'igame-gomoku';
/** Enough games that judging them, or folding them twice, takes the worker a while. */
const EVENTS = 150_000;

interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
}

class Pending {
  reply: Reply | null = null;
  readonly answer: Promise<Reply>;

  constructor(request: Promise<Reply>) {
    this.answer = request.then((reply) => (this.reply = reply));
  }
}

/**
 * The integrity review's heavy work on worker threads (ADR 41), on the built leaderboard
 * service and the real PostgreSQL: the public API answers while a ladder's analysis or a dry
 * run is running; past REVIEW_WORKERS running and REVIEW_QUEUE_LIMIT waiting a review request
 * is a 503 problem with Retry-After; a task past REVIEW_TIMEOUT_MS is stopped; the workers'
 * reports are the ones computed here, in the test's own process; and a ladder past
 * REVIEW_LADDER_GAMES is judged on its latest games. Every wait is on an observed state (the
 * service's metrics, a lock the test holds), never a duration.
 */
describe('integrity review on worker threads', () => {
  const ladders = ladderRegistry();
  const config = ladders.get(LADDER)!;
  const world = new LeaderboardWorld(ladders);
  const lines = [...plantWinTrading({ seed: 41, events: EVENTS }).lines()];
  let token: string;

  const call = async (path: string, auth = true): Promise<Reply> => {
    const res = await fetch(`http://127.0.0.1:${world.port}${path}`, {
      headers: auth ? { authorization: `Bearer ${token}` } : {},
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, headers: res.headers, body };
  };
  const metric = async (name: string, labels: Record<string, string> = {}) =>
    sample(
      (await probe(`http://127.0.0.1:${world.port}${PROBE_PATHS.metrics}`)).text,
      name,
      labels,
    ) ?? 0;
  const tasks = async () => ({
    running: await metric('leaderboard_review_tasks', { state: 'running' }),
    queued: await metric('leaderboard_review_tasks', { state: 'queued' }),
  });
  /** A request whose answer the test may look for while it is still due (reply null). */
  const pending = (path: string) => new Pending(call(path));
  const dryRunPath = (player: string, since: string) =>
    `/review/api/ladders/${LADDER}/dry-run?${new URLSearchParams({ player, since }).toString()}`;

  /** The event store's game results and corrections of the ladder, as the worker reads them. */
  const storedGameEvents = async () =>
    (
      await world.db.query<{ payload: string }[]>(
        `SELECT payload::text AS payload FROM event_store
         WHERE ladder = $1 AND type IN ('game.finished', 'game.corrected') ORDER BY seq`,
        [LADDER],
      )
    )
      .map((r) => gameEventOf(r.payload, (id) => id === LADDER))
      .filter((e) => e !== null);

  /** The dry run computed here, in the test's process, on the same stored log. */
  const inProcessDryRun = (player: string, since: string) => {
    const checked = validateEvent({
      id: `annulment:${LADDER}:in-process`,
      type: 'player.annulled',
      ladder: LADDER,
      player,
      since,
      annulledAt: new PeriodCalendar(config.timezone).iso(Date.now()),
      note: 'test',
    });
    if (!checked.ok) throw new Error(checked.rejection.detail);
    return world.db.transaction('REPEATABLE READ', (manager) =>
      annulmentPreview(
        new PgLadderStore(sqlOf(manager), new Map([[LADDER, config]])),
        config,
        checked.event as never,
      ),
    );
  };

  /** Holds every read of the event store (a lock the dry runs' first query waits for) until released. */
  const holdEventStore = async () => {
    const client = new pg.Client({ connectionString: world.databaseUrl });
    await client.connect();
    await client.query('BEGIN');
    await client.query('LOCK TABLE event_store IN ACCESS EXCLUSIVE MODE');
    return async () => {
      await client.query('COMMIT');
      await client.end();
    };
  };
  const reviewConnections = async () =>
    Number(
      (
        await world.db.query<{ n: string }[]>(
          `SELECT count(*) AS n FROM pg_stat_activity
           WHERE datname = current_database() AND application_name = 'leaderboard-service-review'`,
        )
      )[0]!.n,
    );

  beforeAll(async () => {
    await world.setUp();
    // The planted stream straight into the event store through its repository (the review and
    // the dry run read nothing else), a transaction a chunk.
    const events: { ladder: string; seq: number; event: LadderEvent }[] = [];
    for (const line of lines) {
      const checked = validateEvent(JSON.parse(line));
      if (checked.ok && checked.event.ladder === LADDER)
        events.push({ ladder: LADDER, seq: events.length + 1, event: checked.event });
    }
    for (let at = 0; at < events.length; at += 20_000)
      await world.db.transaction((manager) =>
        new EventStoreRepository(sqlOf(manager)).appendEvents(events.slice(at, at + 20_000)),
      );
    const issued = issueServiceToken();
    await new ServiceTokenRepository(world.sql).issue({
      tokenId: issued.tokenId,
      service: 'support',
      ladders: [LADDER],
      scopes: ['review'],
      digest: issued.digest,
      expiresAt: null,
      issuedBy: 'review-worker-suite',
    });
    token = issued.token;
    await world.startLeaderboard({ REVIEW_WORKERS: '1', REVIEW_QUEUE_LIMIT: '1' });
  }, 300_000);

  afterAll(async () => {
    await world.tearDownAll();
  });

  let suspect: { players: [string, string]; since: string };

  it('Given a ladder’s first analysis running on the worker, Then public requests are answered before it ends, and its report is the one computed in process', async () => {
    const suspects = pending(`/review/api/ladders/${LADDER}/suspects`);
    await waitFor(async () => (await tasks()).running === 1 || suspects.reply !== null, {
      timeout: 120_000,
      interval: 10,
      what: 'the analysis to run on the worker',
    });
    expect(suspects.reply).toBeNull();
    for (let i = 0; i < 3; i++) {
      const ladderList = await call('/v1/ladders', false);
      expect(ladderList.status).toBe(200);
    }
    // Three public answers came while the analysis was still running.
    expect(suspects.reply).toBeNull();
    const { status, headers, body } = await suspects.answer;
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('no-store');

    const collector = new DuelCollector();
    for (const e of await storedGameEvents()) collector.add(e);
    const report = integrityReport(collector.byLadder(), WIN_TRADING_DEFAULTS);
    expect(body).toMatchObject({
      ladder: LADDER,
      games: report.ladders[LADDER]!.games,
      forgotten: 0,
      thresholds: report.thresholds,
    });
    expect(body.suspects).toEqual(report.ladders[LADDER]!.suspects);
    expect(body.suspects.length).toBeGreaterThan(0);
    suspect = body.suspects[0];
    expect(await tasks()).toEqual({ running: 0, queued: 0 });
  });

  it('Given a dry run folding on the worker, Then public requests are answered before it ends, and its preview is the one computed in process', async () => {
    const [player] = suspect.players;
    const dryRun = pending(dryRunPath(player, suspect.since));
    await waitFor(async () => (await tasks()).running === 1 || dryRun.reply !== null, {
      timeout: 60_000,
      interval: 10,
      what: 'the dry run to run on the worker',
    });
    expect(dryRun.reply).toBeNull();
    for (let i = 0; i < 3; i++) expect((await call('/v1/ladders', false)).status).toBe(200);
    expect(dryRun.reply).toBeNull();
    const { status, body } = await dryRun.answer;
    expect(status).toBe(200);
    expect(body.moved).toBeGreaterThan(0);
    expect(body).toEqual(await inProcessDryRun(player, suspect.since));
  });

  it('Given the worker busy and the queue full, Then a further dry run is a 503 problem with Retry-After at once, the public API still answers, and the two admitted are served once the worker frees', async () => {
    const refusedBefore = await metric('leaderboard_review_refused_total', {
      task: 'dryRun',
      reason: 'busy',
    });
    const path = dryRunPath(suspect.players[0], suspect.since);
    const release = await holdEventStore();
    let admitted: Pending[] = [];
    try {
      admitted = [pending(path), pending(path)];
      await waitFor(
        async () => {
          const now = await tasks();
          return now.running === 1 && now.queued === 1;
        },
        { timeout: 30_000, interval: 20, what: 'one dry run running, one queued' },
      );
      const refused = await call(path);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get('cache-control')).toBe('no-store');
      expect(refused.body).toMatchObject({
        status: 503,
        detail: expect.stringMatching(/review.*REVIEW_QUEUE_LIMIT/),
        requestId: expect.any(String),
      });
      expect(
        await metric('leaderboard_review_refused_total', { task: 'dryRun', reason: 'busy' }),
      ).toBe(refusedBefore + 1);
      expect((await call('/v1/ladders', false)).status).toBe(200);
      expect(admitted.map((a) => a.reply)).toEqual([null, null]);
    } finally {
      await release();
    }
    const served = await Promise.all(admitted.map((a) => a.answer));
    expect(served.map((r) => r.status)).toEqual([200, 200]);
    expect(served[1]!.body).toEqual(served[0]!.body);
    expect(await tasks()).toEqual({ running: 0, queued: 0 });
  });

  describe('with REVIEW_TIMEOUT_MS=5000 and REVIEW_LADDER_GAMES=5000', () => {
    beforeAll(async () => {
      await world.leaderboard.stop();
      await world.startLeaderboard({
        REVIEW_WORKERS: '1',
        REVIEW_QUEUE_LIMIT: '1',
        REVIEW_TIMEOUT_MS: '5000',
        REVIEW_LADDER_GAMES: '5000',
      });
    }, 120_000);

    it('Given a dry run past its timeout, Then it is answered 503 with Retry-After and its worker’s connection is gone', async () => {
      const release = await holdEventStore();
      let late: Reply;
      try {
        late = await call(dryRunPath(suspect.players[0], suspect.since));
      } finally {
        await release();
      }
      expect(late.status).toBe(503);
      expect(late.headers.get('retry-after')).toBe('1');
      expect(late.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(late.body.detail).toMatch(/REVIEW_TIMEOUT_MS \(5000 ms\)/);
      expect(
        await metric('leaderboard_review_refused_total', { task: 'dryRun', reason: 'timeout' }),
      ).toBe(1);
      expect(await tasks()).toEqual({ running: 0, queued: 0 });
      // The stopped thread's connection closed with it: PostgreSQL ends its session once the
      // lock it waited for is gone.
      await waitFor(async () => (await reviewConnections()) === 0, {
        timeout: 30_000,
        what: 'the stopped dry run’s connection to end',
      });
    });

    it('Given a ladder past the cap, Then a new worker judges its latest 5000 games, the older counted as forgotten, as LadderDuels and the report judge them in process', async () => {
      const { status, body } = await call(`/review/api/ladders/${LADDER}/suspects`);
      expect(status).toBe(200);
      const held = new LadderDuels(LADDER, 5000);
      const all = new DuelCollector();
      for (const e of await storedGameEvents()) {
        held.add(e);
        all.add(e);
      }
      const duels = duelsOf(held.columns());
      const report = integrityReport(new Map([[LADDER, duels]]), WIN_TRADING_DEFAULTS);
      expect(body.games).toBeLessThanOrEqual(5000);
      expect(body.games).toBe(report.ladders[LADDER]!.games);
      expect(body.forgotten).toBe(all.byLadder().get(LADDER)!.length - body.games);
      expect(body.forgotten).toBeGreaterThan(0);
      expect(body.judgedFrom).toBe(duels[0]!.finishedAt);
      expect(body.suspects).toEqual(report.ladders[LADDER]!.suspects);
    });
  });
});
