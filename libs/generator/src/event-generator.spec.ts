import { createHash } from 'node:crypto';
import { type GameFinished, type LadderEvent, parseEvent } from '@ranking/contracts';
import { ladderRegistry, ReplayEngine } from '@ranking/rating';
import { generateEvents, type GeneratorOptions, trueStrengths } from './event-generator.js';

const checksum = (options: GeneratorOptions): string => {
  const hash = createHash('sha256');
  for (const line of generateEvents(options)) hash.update(`${line}\n`);
  return hash.digest('hex');
};

const events = (options: GeneratorOptions): LadderEvent[] =>
  [...generateEvents(options)].flatMap((line) => {
    const parsed = parseEvent(line);
    return parsed.ok ? [parsed.event] : [];
  });

describe('generateEvents: annulments', () => {
  it('Given no annulmentShare, When a stream is generated, Then it is the stream generated before annulments existed', () => {
    // The sha-256 of this stream as the generator wrote it before `annulmentShare` was added.
    const before = '2c63a1fc86f343614cef9d9afc2065e2ce588536d004d723ddbbeddce7591695';
    expect(checksum({ seed: 7, events: 3000, closes: true })).toBe(before);
    expect(checksum({ seed: 7, events: 3000, closes: true, annulmentShare: 0 })).toBe(before);
  });

  it('Given an annulmentShare, When a stream is generated, Then it holds valid annulments of players who played on the ladder, since a few days back', () => {
    const stream = events({ seed: 8, events: 4000, annulmentShare: 0.01 });
    const annulments = stream.flatMap((e, i) => (e.type === 'player.annulled' ? [{ e, i }] : []));
    expect(annulments.length).toBeGreaterThan(10);
    for (const { e, i } of annulments) {
      const played = stream
        .slice(0, i)
        .some(
          (g) =>
            g.type === 'game.finished' &&
            g.ladder === e.ladder &&
            g.players.some((p) => p.id === e.player),
        );
      expect(played).toBe(true);
      const back = Date.parse(e.annulledAt) - Date.parse(e.since);
      expect(back).toBeGreaterThanOrEqual(0);
      expect(back).toBeLessThanOrEqual(72 * 3_600_000);
    }
  });
});

describe('generateEvents: true strengths', () => {
  const SPREAD = 300;
  const options = { seed: 21, events: 30_000, strengthSpread: SPREAD, badShare: 0 };
  const truth = trueStrengths(options);
  const stream = events(options);
  const games = stream.filter((e): e is GameFinished => e.type === 'game.finished');
  const strength = (ladder: string, id: string): number => {
    const s = truth[ladder]?.[id];
    if (s === undefined) throw new Error(`no true strength for ${id} on ${ladder}`);
    return s;
  };

  it('Given a spread of 0, When a stream is generated, Then it is the coin-flip stream as before, and every true strength is 0', () => {
    const before = '2c63a1fc86f343614cef9d9afc2065e2ce588536d004d723ddbbeddce7591695';
    expect(checksum({ seed: 7, events: 3000, closes: true, strengthSpread: 0 })).toBe(before);
    const flat = trueStrengths({ seed: 7, events: 3000 });
    expect(Object.values(flat).flatMap((l) => Object.values(l))).toEqual(new Array(7 * 75).fill(0));
  });

  it('Given a spread, When the strengths are asked for twice, Then they are the same, spread as asked, for every player the stream names', () => {
    expect(trueStrengths(options)).toEqual(truth);
    const all = Object.values(truth).flatMap((l) => Object.values(l));
    const mean = all.reduce((s, x) => s + x, 0) / all.length;
    const sd = Math.sqrt(all.reduce((s, x) => s + (x - mean) ** 2, 0) / all.length);
    expect(Math.abs(mean)).toBeLessThan(30);
    expect(sd).toBeGreaterThan(SPREAD * 0.9);
    expect(sd).toBeLessThan(SPREAD * 1.1);
    for (const g of games) for (const p of g.players) strength(g.ladder, p.id);
  });

  it('Given a spread, When the stream is replayed, Then every line is accepted (card hands seated by strength still add up)', () => {
    const engine = new ReplayEngine(ladderRegistry(), { simulate: false });
    for (const line of generateEvents(options)) engine.ingestLine(line);
    expect(engine.rejected).toEqual([]);
  });

  /** Decisive games by side strength: how often the stronger side won, and how often it should. */
  function strongerWins(sides: (g: GameFinished) => [number, number, boolean] | null): {
    won: number;
    expected: number;
    games: number;
  } {
    let won = 0;
    let expected = 0;
    let n = 0;
    for (const g of games) {
      const s = sides(g);
      if (s === null || s[0] === s[1]) continue;
      const [a, b, aWon] = s;
      n += 1;
      if (a > b === aWon) won += 1;
      expected += 1 / (1 + 10 ** (-Math.abs(a - b) / 400));
    }
    return { won: won / n, expected: expected / n, games: n };
  }

  it.each(['qq-gomoku', 'igame-gomoku', 'qq-xiangqi', 'xinbo-go', 'igame-gomoku-casual'])(
    'Given a spread, When %s games are decisive, Then the stronger player wins as often as Bradley-Terry says, and draws keep their share',
    (ladder) => {
      const own = games.filter((g) => g.ladder === ladder);
      const figures = strongerWins((g) => {
        if (g.ladder !== ladder || g.players[0]!.result === 'draw') return null;
        const [a, b] = g.players;
        return [strength(ladder, a!.id), strength(ladder, b!.id), a!.result === 'win'];
      });
      expect(figures.games).toBeGreaterThan(500);
      expect(figures.expected).toBeGreaterThan(0.6);
      expect(Math.abs(figures.won - figures.expected)).toBeLessThan(0.03);
      const draws = own.filter((g) => g.players[0]!.result === 'draw').length / own.length;
      expect(draws).toBeGreaterThan(0.04);
      expect(draws).toBeLessThan(0.12);
    },
  );

  it('Given a spread, When squares games are decisive, Then the side with the greater summed strength wins as Bradley-Terry says', () => {
    const figures = strongerWins((g) => {
      if (g.ladder !== 'qq-blokus' || g.players[0]!.result === 'draw') return null;
      const sum = (won: boolean) =>
        g.players
          .filter((p) => (p.result === 'win') === won)
          .reduce((s, p) => s + strength(g.ladder, p.id), 0);
      const w = sum(true);
      const l = sum(false);
      return [w, l, true];
    });
    expect(figures.games).toBeGreaterThan(300);
    expect(Math.abs(figures.won - figures.expected)).toBeLessThan(0.04);
  });

  it('Given a spread, When card hands are dealt, Then four-player pairs win by their summed strength and three-player places follow strength', () => {
    const cards = games.filter((g) => g.ladder === 'qq-fifty-k');
    const engine = new ReplayEngine(ladderRegistry(), { simulate: false });
    const places: number[][] = [];
    let pairs = { won: 0, expected: 0, games: 0 };
    for (const g of cards) {
      const result = engine.ingest(g);
      if (result.kind !== 'accepted' || result.outcome.status !== 'applied') continue;
      const changes = result.outcome.changes;
      if (g.players.length === 3) {
        // Places in order of true strength, strongest first.
        const byStrength = [...changes].sort(
          (x, y) => strength(g.ladder, y.player) - strength(g.ladder, x.player),
        );
        places.push(byStrength.map((c) => (c.why.kind === 'card-points' ? c.why.place! : 0)));
      } else {
        const sum = (won: boolean) =>
          changes
            .filter((c) => (c.result === 'win') === won)
            .reduce((s, c) => s + strength(g.ladder, c.player), 0);
        const [w, l] = [sum(true), sum(false)];
        pairs = {
          won: pairs.won + (w > l ? 1 : 0),
          expected: pairs.expected + 1 / (1 + 10 ** (-Math.abs(w - l) / 400)),
          games: pairs.games + 1,
        };
      }
    }
    expect(pairs.games).toBeGreaterThan(500);
    expect(Math.abs(pairs.won / pairs.games - pairs.expected / pairs.games)).toBeLessThan(0.04);
    // The strongest of three places first more often than the weakest, and on average higher.
    const meanPlace = (k: number) => places.reduce((s, p) => s + p[k]!, 0) / places.length;
    expect(places.length).toBeGreaterThan(200);
    expect(meanPlace(0)).toBeLessThan(meanPlace(1));
    expect(meanPlace(1)).toBeLessThan(meanPlace(2));
  });
});
