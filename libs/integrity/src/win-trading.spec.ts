import { SeededRandom } from '@ranking/generator';
import type { Duel } from './duel.js';
import { expectedScore } from './outside-strength.js';
import { winTradingSuspects } from './win-trading.js';

const DAY = 86_400_000;
const START = Date.parse('2026-03-01T00:00:00+08:00');

/** A ladder of honest play among `strengths` (id → strength), plus scheduled pair games. */
class World {
  readonly duels: Duel[] = [];
  private serial = 0;

  constructor(
    readonly rnd: SeededRandom,
    readonly strengths: Record<string, number>,
  ) {}

  /** `a`'s score: drawn from the strengths unless given. */
  play(at: number, a: string, b: string, aScore?: number): void {
    const score =
      aScore ?? (this.rnd.chance(expectedScore(this.strengths[a]!, this.strengths[b]!)) ? 1 : 0);
    const iso = new Date(at).toISOString();
    this.duels.push({
      ladder: 'igame-gomoku',
      gameId: `g${this.serial++}`,
      at,
      finishedAt: iso,
      sides: [
        { player: a, score, ip: null },
        { player: b, score: 1 - score, ip: null },
      ],
    });
  }

  /** `games` honest games of `player` against the crowd (players named c0…), over 60 days. */
  crowd(player: string, games: number): void {
    const crowd = Object.keys(this.strengths).filter((p) => p.startsWith('c'));
    for (let g = 0; g < games; g++)
      this.play(START + this.rnd.next() * 60 * DAY, player, this.rnd.pick(crowd));
  }

  /** Background: the crowd's own games among themselves. */
  background(games: number): void {
    const crowd = Object.keys(this.strengths).filter((p) => p.startsWith('c'));
    for (let g = 0; g < games; g++) {
      const a = this.rnd.pick(crowd);
      let b = this.rnd.pick(crowd);
      while (b === a) b = this.rnd.pick(crowd);
      this.play(START + this.rnd.next() * 60 * DAY, a, b);
    }
  }
}

function crowdOf(rnd: SeededRandom, size = 30): Record<string, number> {
  const strengths: Record<string, number> = {};
  for (let i = 0; i < size; i++) strengths[`c${i}`] = Math.round((rnd.next() - 0.5) * 400);
  return strengths;
}

describe('winTradingSuspects', () => {
  it('Given two equal players who play each other often with a fair coin, When judged, Then they are never flagged (100 seeded ladders)', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const rnd = new SeededRandom(seed);
      const world = new World(rnd, { ...crowdOf(rnd), a: 0, b: 0 });
      world.background(1500);
      world.crowd('a', 60);
      world.crowd('b', 60);
      for (let g = 0; g < 40; g++)
        world.play(START + rnd.next() * 60 * DAY, 'a', 'b', rnd.chance(0.5) ? 1 : 0);
      const flagged = winTradingSuspects(world.duels).filter((s) => s.players.includes('a'));
      expect({ seed, flagged }).toEqual({ seed, flagged: [] });
    }
  });

  it('Given a feeder as strong as the beneficiary that loses to it nearly always, When judged, Then the pair is flagged, beneficiary first, with the evidence', () => {
    const rnd = new SeededRandom(7);
    const world = new World(rnd, { ...crowdOf(rnd), ben: 0, feeder: 50 });
    world.background(1500);
    world.crowd('ben', 80);
    world.crowd('feeder', 50);
    for (let g = 0; g < 25; g++)
      world.play(START + (10 + g / 2) * DAY, 'ben', 'feeder', g === 7 ? 0 : 1);
    const [suspect] = winTradingSuspects(world.duels);
    expect(suspect).toMatchObject({ players: ['ben', 'feeder'], games: 25, won: 24 });
    expect(suspect!.expected).toBeLessThan(14);
    expect(suspect!.score).toBeGreaterThan(0.999);
    expect(suspect!.evidence[0]).toMatch(/^24 of 25 won against an expected \d+\.\d$/);
    expect(suspect!.evidence[1]).toMatch(/^feeder's other games: 50, won \d+/);
  });

  it('Given a regular who plays honestly and then starts throwing games, Then the run is found from its first thrown game', () => {
    const rnd = new SeededRandom(11);
    const world = new World(rnd, { ...crowdOf(rnd), ben: 0, feeder: 0 });
    world.background(1500);
    world.crowd('ben', 80);
    world.crowd('feeder', 80);
    // Honest and even, the last of them won by the feeder.
    for (let g = 0; g < 10; g++) world.play(START + g * DAY, 'ben', 'feeder', (g + 1) % 2);
    const since = START + 20 * DAY;
    for (let g = 0; g < 22; g++) world.play(since + g * 3_600_000, 'ben', 'feeder', 1);
    const [suspect] = winTradingSuspects(world.duels);
    expect(suspect).toMatchObject({ players: ['ben', 'feeder'], games: 22, won: 22 });
    expect(suspect!.since).toBe(new Date(since).toISOString());
  });

  it('Given a weak pupil who plays mostly one strong teacher and loses as their strengths say, Then the pair is not flagged', () => {
    for (const seed of [3, 5, 8, 13]) {
      const rnd = new SeededRandom(seed);
      const world = new World(rnd, { ...crowdOf(rnd), teacher: 450, pupil: -350 });
      world.background(1500);
      world.crowd('teacher', 120);
      world.crowd('pupil', 5);
      for (let g = 0; g < 35; g++) world.play(START + rnd.next() * 60 * DAY, 'teacher', 'pupil');
      expect(winTradingSuspects(world.duels).filter((s) => s.players.includes('pupil'))).toEqual(
        [],
      );
    }
  });

  it('Given rivals far apart who play often, Then the lopsided record their strengths explain is not flagged', () => {
    for (const seed of [2, 4, 6, 9]) {
      const rnd = new SeededRandom(seed);
      const world = new World(rnd, { ...crowdOf(rnd), strong: 350, weak: -150 });
      world.background(1500);
      world.crowd('strong', 100);
      world.crowd('weak', 100);
      for (let g = 0; g < 50; g++) world.play(START + rnd.next() * 60 * DAY, 'strong', 'weak');
      expect(winTradingSuspects(world.duels).filter((s) => s.players.includes('weak'))).toEqual([]);
    }
  });
});
