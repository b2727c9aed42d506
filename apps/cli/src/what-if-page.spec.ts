import fc from 'fast-check';
import { BUILT_IN_LADDERS, LadderFold, newPlayer, whatIfReport } from '@ranking/rating';
import { changeHistogram, whatIfPage } from './what-if-page.js';

describe('changeHistogram', () => {
  it('given changes over a wide range, then at most 40 bins in half points that count every change once', () => {
    const changes = Array.from({ length: 1000 }, (_, i) => (i % 201) - 100);
    const bins = changeHistogram(changes);
    expect(bins.length).toBeLessThanOrEqual(40);
    expect(bins.reduce((n, b) => n + b.players, 0)).toBe(changes.length);
    expect((bins[0]!.to - bins[0]!.from) % 0.5).toBe(0);
    expect(bins[0]!.from).toBeLessThanOrEqual(-100);
    expect(bins.at(-1)!.to).toBeGreaterThan(100);
  });

  it('given any changes in half points, then at most 40 bins, each change in the bin around it', () => {
    const halfPoints = fc.array(
      fc.integer({ min: -4000, max: 4000 }).map((n) => n / 2),
      {
        minLength: 1,
      },
    );
    fc.assert(
      fc.property(halfPoints, (changes) => {
        const bins = changeHistogram(changes);
        expect(bins.length).toBeLessThanOrEqual(40);
        for (const c of changes)
          expect(bins.filter((b) => b.from <= c && c < b.to)).toHaveLength(1);
        expect(bins.reduce((n, b) => n + b.players, 0)).toBe(changes.length);
      }),
    );
  });

  it('given every change the same, then one bin; given none, then no bin', () => {
    expect(changeHistogram([0, 0, 0])).toEqual([{ from: 0, to: 0.5, players: 3 }]);
    expect(changeHistogram([])).toEqual([]);
  });

  it('given half points, then each lands in its own half-point bin', () => {
    expect(changeHistogram([-1, -0.5, 0.5, 0.5])).toEqual([
      { from: -1, to: -0.5, players: 1 },
      { from: -0.5, to: 0, players: 1 },
      { from: 0, to: 0.5, players: 0 },
      { from: 0.5, to: 1, players: 2 },
    ]);
  });
});

describe('whatIfPage', () => {
  it('given a player id that holds markup, then the page shows it as text and its data cannot end the script', () => {
    const ladder = BUILT_IN_LADDERS.find((l) => l.id === 'qq-gomoku')!;
    const hostile = '</script><script>alert(1)</script>&';
    const asIs = new LadderFold(ladder);
    const variant = new LadderFold(ladder);
    asIs.setPlayer({ ...newPlayer(hostile, ladder), rating: 5, games: 1, ratedGames: 1 });
    variant.setPlayer({ ...newPlayer(hostile, ladder), rating: 9, games: 1, ratedGames: 1 });
    const page = whatIfPage(whatIfReport(asIs, variant), 'test');
    expect(page).not.toContain(hostile);
    expect(page).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;');
    // The page's own script elements: Chart.js, the data, the drawing.
    expect(page.match(/<script[ >]/g)).toHaveLength(3);
    expect(page.match(/<\/script>/g)).toHaveLength(3);
  });
});
