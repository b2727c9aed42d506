/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- the API's JSON answers are read untyped */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LadderEvent } from '@ranking/contracts';
import { generateTournament, TournamentScript, tournamentConfigFor } from '@ranking/generator';
import { ladderRegistry } from '@ranking/rating';
import { ServiceProcess, waitFor } from '@ranking/testing';
import { checkTournamentConfig, tournamentView } from '@ranking/tournament';
import { launchChromium } from './headless-chromium.js';
import { LeaderboardWorld } from './leaderboard-world.js';

// Tournament games go through Kafka and the rating service into the event store; the
// leaderboard service folds them per request. Its answers must equal tournamentView of the very
// events the test produced, and a hand-worked tournament pins a few values down.

/** Two groups of three (the second on another ladder), the winners through, the runners-up in a play-off. */
const cup = checkTournamentConfig({
  id: 'hand-cup',
  name: 'Hand-worked cup',
  ladder: 'qq-gomoku',
  groups: [
    { id: 'g1', players: ['a1', 'a2', 'a3'] },
    { id: 'g2', ladder: 'igame-gomoku', players: ['b1', 'b2', 'b3'] },
  ],
  advancement: { perGroup: 1, playoff: { group: 'po', places: 1 } },
});

function handCupEvents(): LadderEvent[] {
  const s = new TournamentScript(cup, '2026-03-21T18:00:00+08:00');
  // g1: a1 3:0 v a2, 3:0 v a3 with a 4th game reported anyway; a3 does not show up against a2.
  //     a1 2 points +6; a2 1 point 0 (0:3, 3:0); a3 0 points -6.
  s.play('g1', 'a1', 'a2', 'aaa');
  s.play('g1', 'a1', 'a3', 'aaab');
  s.noShow('g1', 'a2', 'a3');
  // g2: b1-b2 reported 2:2 (a b a b), then game 1 is given to b2: b2 3:1. b1 3:0 v b3;
  //     b3 3:0 v b2. All on 1 point: b1 +1 (-2 +3), b3 0, b2 -1 (+2 -3).
  const [first] = s.play('g2', 'b1', 'b2', 'abab');
  s.play('g2', 'b1', 'b3', 'aaa');
  s.play('g2', 'b2', 'b3', 'bbb');
  s.correct(first!.gameId, 'b2');
  // Play-off of the runners-up a2 and b3: b3 3:1.
  s.play('po', 'a2', 'b3', 'bbab');
  return s.events;
}

const generated = tournamentConfigFor({
  id: 'gen-cup',
  ladder: 'qq-gomoku',
  groups: 4,
  playersPerGroup: 4,
  playoffPlaces: 2,
});

describe('tournaments through the leaderboard service (real Kafka, PostgreSQL, Redis)', () => {
  const ladders = ladderRegistry();
  const world = new LeaderboardWorld(ladders);
  const dir = mkdtempSync(join(tmpdir(), 'tournaments-'));
  const file = join(dir, 'tournaments.json');
  const hand = handCupEvents();
  // Shares high enough that every kind of irregular game turns up.
  const gen = generateTournament({
    seed: 17,
    config: generated,
    start: '2026-03-22T10:00:00+08:00',
    noShowShare: 0.15,
    extraGameShare: 0.3,
    correctionShare: 0.15,
  });
  const lines = [...hand, ...gen].map((e) => JSON.stringify(e));
  let rating: ReturnType<LeaderboardWorld['service']>;

  beforeAll(async () => {
    writeFileSync(
      file,
      JSON.stringify([
        {
          id: cup.id,
          name: cup.name,
          ladder: cup.ladder,
          groups: cup.groups,
          advancement: cup.advancement,
        },
        generated,
      ]),
    );
    await world.setUp();
    rating = world.service();
    rating.start();
    await world.startLeaderboard({ RANKING_TOURNAMENTS_FILE: file });
    await world.produce(lines);
    await waitFor(() => world.drained(), { timeout: 120_000, interval: 250, what: 'the drain' });
  }, 240_000);

  afterAll(async () => {
    await world.tearDownAll(rating);
    rmSync(dir, { recursive: true, force: true });
  });

  it('the generated tournament holds a no-show, a game after the end and a correction', () => {
    const games = gen.filter((e) => e.type === 'game.finished');
    expect(games.some((e) => e.reason === 'no-show')).toBe(true);
    expect(gen.some((e) => e.type === 'game.corrected')).toBe(true);
    const view = tournamentView(generated, gen);
    const notes = [...view.groups, view.playoff!].flatMap((g) =>
      g.matches.flatMap((m) => m.games.map((x) => x.note)),
    );
    expect(notes).toContain('after-end');
  });

  it('given the games went through the rating service, when GET /tournaments/:id, then it equals tournamentView of the same events', async () => {
    for (const [config, events] of [
      [cup, hand],
      [generated, gen],
    ] as const) {
      const { status, body } = await world.get(`/tournaments/${config.id}`);
      expect(status).toBe(200);
      expect(body).toEqual(JSON.parse(JSON.stringify(tournamentView(config, events))));
    }
  });

  it('given the hand-worked cup, then its winners, small points and play-off group are the ones worked out by hand', async () => {
    const { body } = await world.get('/tournaments/hand-cup');
    const g1 = body.groups[0];
    const g2 = body.groups[1];
    expect(
      g1.standings.map((r: any) => [r.position, r.player, r.matchPoints, r.smallPoints]),
    ).toEqual([
      [1, 'a1', 2, 6],
      [2, 'a2', 1, 0],
      [3, 'a3', 0, -6],
    ]);
    expect(g1.standings.map((r: any) => r.fate)).toEqual(['qualified', 'playoff', 'eliminated']);
    // The 3:0 with a 4th game: 3:0, its last game listed but not counted.
    const a1a3 = g1.matches.find((m: any) => m.players.join() === 'a1,a3');
    expect(a1a3.score).toEqual([3, 0]);
    expect(a1a3.games.map((g: any) => g.note)).toEqual([null, null, null, 'after-end']);
    const noShow = g1.matches.find((m: any) => m.players.join() === 'a2,a3');
    expect(noShow).toMatchObject({ score: [3, 0], winner: 'a2', noShow: 'a3' });
    // The correction turned b1-b2 from 2:2 into 3:1 for b2.
    expect(g2.matches.find((m: any) => m.players.join() === 'b1,b2')).toMatchObject({
      score: [1, 3],
      winner: 'b2',
    });
    expect(g2.standings.map((r: any) => [r.player, r.matchPoints, r.smallPoints])).toEqual([
      ['b1', 1, 1],
      ['b3', 1, 0],
      ['b2', 1, -1],
    ]);
    expect(body.playoff.players).toEqual(['a2', 'b3']);
    expect(body.playoff.standings.map((r: any) => [r.player, r.fate])).toEqual([
      ['b3', 'qualified'],
      ['a2', 'eliminated'],
    ]);
    expect(body.advancement.qualified.map((q: any) => q.player)).toEqual(['a1', 'b1', 'b3']);
    expect(body.complete).toBe(true);
  });

  it('when GET /tournaments, then it lists both with their ladders, groups and status', async () => {
    const { status, body } = await world.get('/tournaments');
    expect(status).toBe(200);
    expect(body.tournaments).toEqual([
      {
        id: 'hand-cup',
        name: 'Hand-worked cup',
        ladder: 'qq-gomoku',
        ladders: ['igame-gomoku', 'qq-gomoku'],
        groups: 2,
        players: 6,
        status: 'finished',
        games: hand.filter((e) => e.type === 'game.finished').length,
        qualified: 3,
      },
      {
        id: 'gen-cup',
        name: 'gen-cup',
        ladder: 'qq-gomoku',
        ladders: ['qq-gomoku'],
        groups: 4,
        players: 16,
        status: 'finished',
        games: gen.filter((e) => e.type === 'game.finished').length,
        qualified: 4 * 2 + 2,
      },
    ]);
  });

  it('the OpenAPI document describes both routes', async () => {
    const { body } = await world.get('/docs/json');
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining(['/v1/tournaments', '/v1/tournaments/{id}']),
    );
    expect(body.paths['/v1/tournaments/{id}'].get.responses['404']).toBeDefined();
  });

  it('when GET /tournaments/:id names no configured tournament, then 404 names the known ones', async () => {
    const { status, body } = await world.get('/tournaments/nope');
    expect(status).toBe(404);
    expect(body.detail).toBe('unknown tournament "nope"; known tournaments: hand-cup, gen-cup');
  });

  it('given the page, when a tournament is picked, then each group table shows the rows the API gives', async () => {
    const api = (await world.get('/tournaments/gen-cup')).body;
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${world.port}/`);
      await page.click('#show-tournaments');
      await page.waitForSelector('#groups section[data-group="g1"] tbody tr');
      await page.selectOption('#tournament', 'gen-cup');
      await page.waitForSelector('#groups section[data-group="group-1"] tbody tr');
      for (const group of api.groups) {
        const cells = await page.$$eval(
          `#groups section[data-group="${group.id}"] tbody tr`,
          (rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)),
        );
        expect(cells.map((c) => c.slice(0, 4))).toEqual(
          group.standings.map((r: any) => [
            String(r.position),
            r.player,
            String(r.played),
            String(r.matchPoints),
          ]),
        );
        expect(cells.map((c) => Number(c[4]))).toEqual(
          group.standings.map((r: any) => r.smallPoints),
        );
        expect(cells.map((c) => c[5])).toEqual(
          group.standings.map((r: any) =>
            r.fate === 'qualified'
              ? 'qualified'
              : r.fate === 'playoff'
                ? 'to the play-off group'
                : '',
          ),
        );
      }
      const playoff = await page.$$eval('#playoff tbody tr td:nth-child(2)', (tds) =>
        tds.map((td) => td.textContent),
      );
      expect(playoff).toEqual(api.playoff.standings.map((r: any) => r.player));
      expect(await page.textContent('#advancement-through')).toContain(
        `${api.advancement.qualified[0].player} (group-1 #1)`,
      );
      await page.screenshot({ path: '/tmp/tournaments-page.png', fullPage: true });
      // Back to the boards.
      await page.click('#show-boards');
      expect(await page.isVisible('#board-section')).toBe(true);
      expect(await page.isVisible('#tournament-section')).toBe(false);
    } finally {
      await browser.close();
    }
  });

  it('given the same games published again, then the tournament is unchanged', async () => {
    const before = (await world.get('/tournaments/hand-cup')).body;
    await world.produce(hand.map((e) => JSON.stringify(e)));
    await waitFor(() => world.drained(), { timeout: 60_000, interval: 250, what: 'the drain' });
    expect((await world.get('/tournaments/hand-cup')).body).toEqual(before);
  });

  it('given no tournaments file, the list is empty; given a bad one, the service stops naming the variable', async () => {
    await world.leaderboard.stop();
    await world.startLeaderboard();
    expect((await world.get('/tournaments')).body).toEqual({ tournaments: [] });
    expect((await world.get('/tournaments/hand-cup')).status).toBe(404);
    await world.leaderboard.stop();
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify([{ id: 'x', ladder: 'no-such-ladder', groups: [] }]));
    const service = new ServiceProcess('dist/apps/leaderboard-service/src/main.js', {
      DATABASE_URL: world.databaseUrl,
      KAFKA_TOPIC_PREFIX: world.prefix,
      REDIS_KEY_PREFIX: world.redisPrefix,
      HTTP_PORT: String(world.port),
      RANKING_TOURNAMENTS_FILE: bad,
    });
    service.start();
    try {
      // The one line the service ends with. Nest logs the same error first as a JSON line (its
      // quotes escaped), so waiting for the variable's name alone raced that line.
      const line = `RANKING_TOURNAMENTS_FILE=${JSON.stringify(bad)}: tournament x: ladder "no-such-ladder" is not a configured ladder`;
      await waitFor(() => service.output.includes(line), {
        timeout: 30_000,
        interval: 100,
        what: 'the start-up error line',
      });
      await waitFor(() => !service.alive(), { timeout: 30_000, interval: 100, what: 'the exit' });
    } finally {
      await service.stop();
    }
  });
});
