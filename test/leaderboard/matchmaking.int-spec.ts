/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- the API's JSON answers are read untyped */
import { generateEvents } from '@ranking/generator';
import {
  ladderRegistry,
  matchQuality,
  type Skill,
  SKILL_PRIOR,
  winProbabilities,
} from '@ranking/rating';
import { sampleSum, type ServiceProcess, waitFor } from '@ranking/testing';
import { redisClient } from '@ranking/redis';
import { LeaderboardWorld } from './leaderboard-world.js';

const DAY = 86_400_000;
const ladders = ladderRegistry();
const started = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();

/** A qq-xiangqi game between two players at an instant. */
const xiangqi = (id: string, red: string, black: string, at: number, result = 'win') =>
  JSON.stringify({
    id,
    type: 'game.finished',
    ladder: 'qq-xiangqi',
    gameId: id,
    finishedAt: iso(at),
    moves: 60,
    players: [
      { id: red, result, side: 'red', first: true },
      { id: black, result: result === 'win' ? 'loss' : 'draw', side: 'black', first: false },
    ],
  });

interface StoredRow {
  player: string;
  skill: Skill;
  lastPlayedAt: number | null;
}

/**
 * The matchmaking API against the rating service, on the real Kafka, PostgreSQL and Redis: a
 * stream of the last 20 days over every ladder (corrections included) and two players whose
 * only game is older than the 14-day window.
 */
describe('matchmaking API (real Kafka, PostgreSQL, Redis)', () => {
  const world = new LeaderboardWorld(ladders);
  let rating: ServiceProcess;
  const lines = [
    ...generateEvents({
      seed: 1919,
      events: 3000,
      start: iso(started - 20 * DAY),
      days: 20,
      correctionShare: 0.03,
      playersPerLadder: 40,
    }),
    xiangqi('veterans', 'veteran-a', 'veteran-b', started - 20 * DAY),
  ];

  /** The ladder's players as PostgreSQL holds them (a null estimate read as the prior). */
  const stored = async (ladder: string): Promise<Map<string, StoredRow>> => {
    const rows: any[] = await world.db.query(
      'SELECT player, skill_mu, skill_sigma, last_played_at FROM ladder_players WHERE ladder = $1',
      [ladder],
    );
    return new Map(
      rows.map((r) => [
        r.player,
        {
          player: r.player,
          skill: { mu: r.skill_mu ?? SKILL_PRIOR.mu, sigma: r.skill_sigma ?? SKILL_PRIOR.sigma },
          lastPlayedAt: r.last_played_at === null ? null : Number(r.last_played_at),
        },
      ]),
    );
  };

  /** What the opponents answer must list: the definition, over the stored rows. */
  const expectedOpponents = (
    rows: Map<string, StoredRow>,
    player: string,
    activeSince: number,
    limit: number,
  ) => {
    const me = rows.get(player)!.skill;
    return [...rows.values()]
      .filter(
        (r) => r.player !== player && r.lastPlayedAt !== null && r.lastPlayedAt >= activeSince,
      )
      .sort(
        (a, b) =>
          Math.abs(a.skill.mu - me.mu) - Math.abs(b.skill.mu - me.mu) ||
          (a.player < b.player ? -1 : 1),
      )
      .slice(0, limit)
      .map((o) => ({
        player: o.player,
        skill: o.skill,
        lastPlayedAt: iso(o.lastPlayedAt!),
        winProbability: winProbabilities([[me], [o.skill]])[0],
        matchQuality: matchQuality([[me], [o.skill]]),
      }));
  };

  /** Everything produced so far is in PostgreSQL and on the boards; returns that instant. */
  const settled = async (): Promise<number> => {
    await waitFor(
      async () =>
        await world.settled(),
      { timeout: 120_000, interval: 250, what: 'the rating service and the boards' },
    );
    return Date.now();
  };

  /** The opponents answer once the index holds everything PostgreSQL held at `since`. */
  const opponentsAfter = async (since: number, ladder: string, player: string, limit = 10) => {
    let answer: any;
    await waitFor(
      async () => {
        answer = await world.get(`/ladders/${ladder}/players/${player}/opponents?limit=${limit}`);
        return answer.status === 200 && Date.parse(answer.body.asOf) >= since;
      },
      { timeout: 30_000, interval: 100, what: `the ${ladder} index to pass ${iso(since)}` },
    );
    return answer.body;
  };

  /** The service's counts of players re-read into the indexes and of whole loads. */
  const indexWork = async () => {
    const text = String((await world.get('/metrics')).body);
    return {
      players: sampleSum(text, 'leaderboard_skill_index_players_total'),
      loads: sampleSum(text, 'leaderboard_skill_index_load_seconds_count'),
    };
  };

  let drainedAt = 0;

  beforeAll(async () => {
    await world.setUp();
    rating = world.service();
    rating.start();
    await world.startLeaderboard();
    await world.produce(lines);
    drainedAt = await settled();
  }, 240_000);

  afterAll(() => world.tearDownAll(rating));

  it('the player answer carries the skill estimate PostgreSQL holds', async () => {
    for (const ladder of ['qq-xiangqi', 'qq-blokus', 'qq-fifty-k', 'igame-gomoku', 'xinbo-go']) {
      const rows = await stored(ladder);
      const sample = [...rows.keys()].sort().slice(0, 5);
      expect(sample.length).toBeGreaterThan(0);
      for (const player of sample) {
        const { status, body } = await world.get(`/ladders/${ladder}/players/${player}`);
        expect({ ladder, player, status, skill: body.skill }).toEqual({
          ladder,
          player,
          status: 200,
          skill: rows.get(player)!.skill,
        });
        // Played, so estimated: not the prior.
        expect(body.skill.mu).not.toBe(SKILL_PRIOR.mu);
      }
    }
  });

  it('given a live row stored before rows carried the estimate, then the player answer reads it from PostgreSQL', async () => {
    const rows = await stored('qq-xiangqi');
    const player = 'xiangqi4';
    const redis = redisClient('redis://127.0.0.1:6379', 'matchmaking-test');
    try {
      const meta = `${world.redisPrefix}lb:{qq-xiangqi}:board:live`;
      const hash = `${meta}:${await redis.hget(meta, 'version')}:h`;
      const data = (await redis.hget(hash, player))!;
      expect(data.split('|')).toHaveLength(9);
      await redis.hset(hash, player, data.split('|').slice(0, 7).join('|'));
      const { body } = await world.get(`/ladders/qq-xiangqi/players/${player}`);
      expect(body.skill).toEqual(rows.get(player)!.skill);
      await redis.hset(hash, player, data);
    } finally {
      await redis.quit();
    }
  });

  it.each(['qq-xiangqi', 'qq-blokus', 'qq-fifty-k', 'igame-gomoku-casual'])(
    'on %s, opponents are the active players closest in mean, each with the win probability and match quality of the stored estimates',
    async (ladder) => {
      const rows = await stored(ladder);
      const players = [...rows.keys()].sort();
      for (const [player, limit] of [
        [players[0]!, 10],
        [players[7]!, 3],
        [players[players.length - 1]!, 100],
      ] as const) {
        const body = await opponentsAfter(drainedAt, ladder, player, limit);
        const activeSince = Date.parse(body.activeSince);
        expect(activeSince).toBeGreaterThanOrEqual(started - 14 * DAY);
        expect(body).toMatchObject({ ladder, player, skill: rows.get(player)!.skill });
        expect(body.opponents).toEqual(expectedOpponents(rows, player, activeSince, limit));
        expect(body.opponents.length).toBeGreaterThan(0);
        for (let i = 1; i < body.opponents.length; i++)
          expect(Math.abs(body.opponents[i].skill.mu - body.skill.mu)).toBeGreaterThanOrEqual(
            Math.abs(body.opponents[i - 1].skill.mu - body.skill.mu),
          );
      }
    },
  );

  it('players whose last game is older than 14 days are never offered, yet may ask', async () => {
    const rows = await stored('qq-xiangqi');
    expect(rows.get('veteran-a')!.lastPlayedAt).toBe(started - 20 * DAY);
    const all = await opponentsAfter(drainedAt, 'qq-xiangqi', 'xiangqi1', 100);
    expect(all.opponents.map((o: any) => o.player)).not.toContain('veteran-a');
    expect(all.opponents.map((o: any) => o.player)).not.toContain('veteran-b');
    const veteran = await opponentsAfter(drainedAt, 'qq-xiangqi', 'veteran-a', 5);
    expect(veteran.skill).toEqual(rows.get('veteran-a')!.skill);
    expect(veteran.opponents).toEqual(
      expectedOpponents(rows, 'veteran-a', Date.parse(veteran.activeSince), 5),
    );
  });

  it('when new games, then an annulment, are applied, then the opponents follow within seconds', async () => {
    const before = await stored('qq-xiangqi');
    await opponentsAfter(drainedAt, 'qq-xiangqi', 'xiangqi2');
    const work = await indexWork();
    // Two veterans come back (active again) and two regulars play each other.
    const now = Date.now();
    await world.produce([
      xiangqi('comeback-1', 'veteran-a', 'xiangqi2', now),
      xiangqi('comeback-2', 'xiangqi5', 'veteran-b', now, 'draw'),
      xiangqi('regulars-1', 'xiangqi2', 'xiangqi5', now),
    ]);
    const afterGames = await settled();
    const rows = await stored('qq-xiangqi');
    for (const moved of ['veteran-a', 'veteran-b', 'xiangqi2', 'xiangqi5']) {
      expect(rows.get(moved)!.skill).not.toEqual(before.get(moved)!.skill);
      // The live row the player answer reads was rewritten with the game.
      expect((await world.get(`/ladders/qq-xiangqi/players/${moved}`)).body.skill).toEqual(
        rows.get(moved)!.skill,
      );
    }
    const body = await opponentsAfter(afterGames, 'qq-xiangqi', 'xiangqi2', 100);
    expect(body.skill).toEqual(rows.get('xiangqi2')!.skill);
    expect(body.opponents).toEqual(
      expectedOpponents(rows, 'xiangqi2', Date.parse(body.activeSince), 100),
    );
    expect(body.opponents.map((o: any) => o.player)).toContain('veteran-a');
    // The players the games named were read again (each time a check saw a new game of
    // theirs), the index was not reloaded.
    const incremental = await indexWork();
    expect(incremental.players).toBeGreaterThanOrEqual(work.players + 4);
    expect(incremental.loads).toBe(work.loads);

    // An annulment re-folds the ladder: any estimate may move (a whole reload of the index).
    await world.produce([
      JSON.stringify({
        id: 'annul-xiangqi2',
        type: 'player.annulled',
        ladder: 'qq-xiangqi',
        player: 'xiangqi2',
        since: iso(started - 30 * DAY),
        annulledAt: iso(Date.now()),
        note: 'matchmaking test',
      }),
    ]);
    const afterAnnulment = await settled();
    const refolded = await stored('qq-xiangqi');
    expect(refolded.get('xiangqi2')!.lastPlayedAt).toBeNull();
    const moved = [...refolded.values()].filter(
      (r) => r.player !== 'xiangqi2' && r.skill.mu !== rows.get(r.player)?.skill.mu,
    );
    expect(moved.length).toBeGreaterThan(5);
    const asker = moved[0]!.player;
    const again = await opponentsAfter(afterAnnulment, 'qq-xiangqi', asker, 100);
    expect(again.opponents).toEqual(
      expectedOpponents(refolded, asker, Date.parse(again.activeSince), 100),
    );
    expect(again.opponents.map((o: any) => o.player)).not.toContain('xiangqi2');
    expect((await indexWork()).loads).toBe(work.loads + 1);
  });

  it('predict: one versus one from the stored estimates, an unknown player at the prior', async () => {
    const rows = await stored('qq-xiangqi');
    const [a, b] = ['xiangqi1', 'xiangqi3'].map((p) => rows.get(p)!.skill);
    const { status, body } = await world.post('/ladders/qq-xiangqi/predict', {
      teams: [['xiangqi1'], ['xiangqi3']],
    });
    expect(status).toBe(200);
    const wins = winProbabilities([[a!], [b!]]);
    expect(body).toEqual({
      ladder: 'qq-xiangqi',
      teams: [
        { players: [{ player: 'xiangqi1', known: true, skill: a }], winProbability: wins[0] },
        { players: [{ player: 'xiangqi3', known: true, skill: b }], winProbability: wins[1] },
      ],
      matchQuality: matchQuality([[a!], [b!]]),
    });
    const fresh = await world.post('/ladders/qq-xiangqi/predict', {
      teams: [['xiangqi1'], ['newcomer']],
    });
    expect(fresh.status).toBe(200);
    expect(fresh.body.teams[1].players).toEqual([
      { player: 'newcomer', known: false, skill: { mu: SKILL_PRIOR.mu, sigma: SKILL_PRIOR.sigma } },
    ]);
    expect(fresh.body.teams[0].winProbability).toBe(winProbabilities([[a!], [SKILL_PRIOR]])[0]);
  });

  it('predict: a two-versus-two squares game and a card-points ranking of three', async () => {
    const blokus = await stored('qq-blokus');
    const [p1, p2, p3, p4] = [...blokus.keys()].sort();
    const teams = [
      [p1!, p2!],
      [p3!, p4!],
    ];
    const skills = teams.map((side) => side.map((p) => blokus.get(p)!.skill));
    const { status, body } = await world.post('/ladders/qq-blokus/predict', { teams });
    expect(status).toBe(200);
    expect(body.teams.map((t: any) => t.winProbability)).toEqual(winProbabilities(skills));
    expect(body.teams.map((t: any) => t.players.map((p: any) => p.skill))).toEqual(skills);
    expect(body.matchQuality).toBe(matchQuality(skills));

    const cards = await stored('qq-fifty-k');
    const three = [...cards.keys()]
      .sort()
      .slice(0, 3)
      .map((p) => [p]);
    const trio = three.map((side) => side.map((p) => cards.get(p)!.skill));
    const ranking = await world.post('/ladders/qq-fifty-k/predict', { teams: three });
    expect(ranking.status).toBe(200);
    expect(ranking.body.teams.map((t: any) => t.winProbability)).toEqual(winProbabilities(trio));
    expect(ranking.body.matchQuality).toBe(matchQuality(trio));
  });

  it.each([
    ['/ladders/qq-xiangqi/players/xiangqi1/opponents?limit=0', 400, /limit must be at least 1/],
    ['/ladders/qq-xiangqi/players/xiangqi1/opponents?limit=101', 400, /limit must be at most 100/],
    ['/ladders/qq-xiangqi/players/xiangqi1/opponents?limit=ten', 400, /whole number/],
    ['/ladders/qq-xiangqi/players/xiangqi1/opponents?colour=red', 400, /colour should not exist/],
    ['/ladders/chess/players/xiangqi1/opponents', 404, /unknown ladder "chess"/],
    [
      '/ladders/qq-xiangqi/players/nobody/opponents',
      404,
      /player "nobody" is not known on ladder "qq-xiangqi"/,
    ],
  ])('GET %s answers %i with a clear message', async (path, status, message) => {
    const answer = await world.get(path);
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ type: 'about:blank', status });
    expect(answer.body.detail).toMatch(message);
  });

  it.each([
    [
      'qq-xiangqi',
      {
        teams: [
          ['xiangqi1', 'xiangqi2'],
          ['xiangqi3', 'xiangqi4'],
        ],
      },
      400,
      /plays 2 sides of 1, not 2 sides of 2/,
    ],
    [
      'qq-blokus',
      { teams: [['blokus1', 'blokus2'], ['blokus3']] },
      400,
      /plays 2 sides of 1 or 2 sides of 2, not sides of 2, 1/,
    ],
    ['qq-fifty-k', { teams: [['fifty1'], ['fifty2']] }, 400, /plays 3 sides of 1 or 2 sides of 2/],
    [
      'qq-xiangqi',
      { teams: [['xiangqi1'], ['xiangqi1']] },
      400,
      /teams\[1\]\[0\]: player "xiangqi1" is already in the game at teams\[0\]\[0\]/,
    ],
    ['qq-xiangqi', { teams: [['xiangqi1'], [42]] }, 400, /teams\[1\]\[0\] must be a player id/],
    ['qq-xiangqi', { teams: [['xiangqi1'], ['']] }, 400, /teams\[1\]\[0\] must be a player id/],
    [
      'qq-xiangqi',
      { teams: [['xiangqi1'], []] },
      400,
      /teams\[1\] must be a list of 1 to 4 player ids/,
    ],
    [
      'qq-xiangqi',
      { players: ['xiangqi1', 'xiangqi2'] },
      400,
      /"players" is not a field of a proposed game/,
    ],
    ['qq-xiangqi', {}, 400, /teams is required/],
    ['chess', { teams: [['a'], ['b']] }, 404, /unknown ladder "chess"/],
  ])(
    'POST /ladders/%s/predict with %j answers %i with a clear message',
    async (ladder, body, status, message) => {
      const answer = await world.post(`/ladders/${ladder}/predict`, body);
      expect(answer.status).toBe(status);
      expect(answer.body).toMatchObject({ type: 'about:blank', status });
      expect(answer.body.detail).toMatch(message);
    },
  );

  it.each([
    ['broken JSON', '{"teams": [["a"],', 'application/json', /Body is not valid JSON/],
    ['an empty body', '', 'application/json', /Body cannot be empty/],
    ['plain text', 'a versus b', 'text/plain', /the body must be a JSON object/],
  ])('given %s, then 400 with a message', async (_what, body, type, message) => {
    const answer = await world.post('/ladders/qq-xiangqi/predict', body, type);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: 'about:blank', status: 400 });
    expect(answer.body.detail).toMatch(message);
  });

  it('the OpenAPI document lists both endpoints with their response schemas', async () => {
    const { status, body } = await world.get('/docs/json');
    expect(status).toBe(200);
    const schema = (ref: string) => body.components.schemas[ref.split('/').pop()!];
    const opponents = body.paths['/v1/ladders/{ladder}/players/{player}/opponents'].get;
    expect(opponents.parameters.map((p: any) => p.name).sort()).toEqual([
      'ladder',
      'limit',
      'player',
    ]);
    const answer = schema(opponents.responses['200'].content['application/json'].schema.$ref);
    expect(Object.keys(answer.properties)).toEqual(
      expect.arrayContaining(['player', 'skill', 'activeSince', 'asOf', 'opponents']),
    );
    expect(Object.keys(schema(answer.properties.opponents.items.$ref).properties)).toEqual(
      expect.arrayContaining(['player', 'skill', 'winProbability', 'matchQuality']),
    );
    expect(opponents.responses['400']).toBeDefined();
    expect(opponents.responses['404']).toBeDefined();
    const predict = body.paths['/v1/ladders/{ladder}/predict'].post;
    expect(
      schema(predict.requestBody.content['application/json'].schema.$ref).properties.teams,
    ).toMatchObject({ type: 'array', items: { type: 'array', items: { type: 'string' } } });
    const prediction = schema(predict.responses['200'].content['application/json'].schema.$ref);
    expect(Object.keys(prediction.properties)).toEqual(
      expect.arrayContaining(['teams', 'matchQuality']),
    );
    expect(predict.responses['400']).toBeDefined();
  });
});
