/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- the API's JSON answers are read untyped */
import { loadTournaments } from '@ranking/config';
import { ladderRegistry } from '@ranking/rating';
import { jsonLines, waitFor } from '@ranking/testing';
import { DEMO_TOURNAMENTS, LeaderboardWorld } from './leaderboard-world.js';

// What deploy/run.sh does, on a private world: the leaderboard service serves the demo file and
// `ranking simulate --tournaments` plays it out before its backfill.
describe('the demo tournament of deploy/run.sh (real Kafka, PostgreSQL, Redis)', () => {
  const ladders = ladderRegistry();
  const world = new LeaderboardWorld(ladders);
  const [demo] = loadTournaments({ RANKING_TOURNAMENTS_FILE: DEMO_TOURNAMENTS }, ladders);
  let rating: ReturnType<LeaderboardWorld['service']>;
  let published = 0;

  beforeAll(async () => {
    await world.setUp();
    rating = world.service();
    rating.start();
    await world.startLeaderboard({ RANKING_TOURNAMENTS_FILE: DEMO_TOURNAMENTS });
    const { stderr } = await world.playDemoTournaments('info');
    published = Number(
      jsonLines(stderr).find((l) => l.context === 'simulate' && l.tournament === 'demo-cup')
        ?.events,
    );
    await waitFor(() => world.drained(), { timeout: 120_000, interval: 250, what: 'the drain' });
  }, 240_000);

  afterAll(async () => {
    await world.tearDownAll(rating);
  });

  it('given the simulator played the demo file, then GET /tournaments shows it finished, with every group and the play-off decided', async () => {
    expect(published).toBeGreaterThan(0);
    const list = (await world.get('/tournaments')).body.tournaments;
    expect(list).toMatchObject([
      { id: 'demo-cup', status: 'finished', groups: 4, players: 16, qualified: 4 * 2 + 2 },
    ]);
    const { status, body } = await world.get('/tournaments/demo-cup');
    expect(status).toBe(200);
    expect(body.groups.map((g: any) => [g.id, g.ladder, g.complete])).toEqual([
      ['A', 'qq-gomoku', true],
      ['B', 'qq-gomoku', true],
      ['C', 'qq-gomoku', true],
      ['D', 'igame-gomoku', true],
    ]);
    expect(body.playoff.players).toHaveLength(4);
    expect(body.playoff.complete).toBe(true);
    expect(body.ignored).toEqual([]);
    // The demo shows a no-show and an adjudication.
    const matches = [...body.groups, body.playoff].flatMap((g: any) => g.matches);
    expect(matches.some((m: any) => m.noShow !== null)).toBe(true);
    // Every published event is in the store: games plus corrections.
    const stored = await world.db.query(
      `SELECT count(*) AS n FROM event_store WHERE event_id LIKE 'demo-cup-%'`,
    );
    expect(Number(stored[0].n)).toBe(published);
    const corrections = await world.db.query(
      `SELECT count(*) AS n FROM event_store WHERE type = 'game.corrected' AND event_id LIKE 'demo-cup-%'`,
    );
    expect(Number(corrections[0].n)).toBeGreaterThan(0);
    expect(demo!.groups.flatMap((g) => g.players)).toEqual(
      body.groups.flatMap((g: any) => g.players),
    );
  });
});
