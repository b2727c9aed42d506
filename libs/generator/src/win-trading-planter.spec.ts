import { plantWinTrading } from './win-trading-planter.js';

describe('plantWinTrading', () => {
  const options = { seed: 5, events: 20_000 };
  const stream = plantWinTrading(options);
  const lines = [...stream.lines()];
  const events = lines.map(
    (l) =>
      JSON.parse(l) as {
        finishedAt: string;
        players: { id: string; result: string; ip: string }[];
      },
  );
  const between = (a: string, b: string) =>
    events.filter((e) => e.players.some((p) => p.id === a) && e.players.some((p) => p.id === b));

  it('Given a seed, Then the same lines and truth come every time, in time order', () => {
    expect([...plantWinTrading(options).lines()]).toEqual(lines);
    expect(plantWinTrading(options).truth).toEqual(stream.truth);
    const times = events.map((e) => Date.parse(e.finishedAt));
    expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).toBe(true);
  });

  it('Given the truth, Then it plants both kinds (a third on the beneficiary’s /24) and every honest look-alike kind', () => {
    const { planted, lookAlikes } = stream.truth;
    expect(planted).toHaveLength(12);
    expect(new Set(planted.map((p) => p.kind))).toEqual(new Set(['new-account', 'regular']));
    expect(planted.filter((p) => p.sameNetwork)).toHaveLength(4);
    expect(new Set(lookAlikes.map((l) => l.kind))).toEqual(
      new Set(['friends', 'rivals', 'teacher', 'elite']),
    );
  });

  it('Given a planted pair, Then the feeder is about as strong or stronger and loses to the beneficiary nearly always from the run on', () => {
    for (const p of stream.truth.planted) {
      expect(stream.truth.strengths[p.feeder]!).toBeGreaterThanOrEqual(
        stream.truth.strengths[p.beneficiary]! - 50,
      );
      const games = between(p.beneficiary, p.feeder);
      const won = games.filter(
        (e) => e.players.find((x) => x.id === p.beneficiary)!.result === 'win',
      ).length;
      expect(games.length).toBeGreaterThanOrEqual(18);
      expect(won / games.length).toBeGreaterThan(0.6);
      if (p.sameNetwork) {
        const net = (ip: string) => ip.split('.').slice(0, 3).join('.');
        const [game] = games;
        expect(net(game!.players[0]!.ip)).toBe(net(game!.players[1]!.ip));
      }
    }
  });
});
