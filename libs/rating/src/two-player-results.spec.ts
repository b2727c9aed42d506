import type { PlayerReport } from '@ranking/contracts';
import { twoPlayerResults } from './two-player-results.js';

const game = (a?: PlayerReport['result'], b?: PlayerReport['result']): PlayerReport[] => [
  { id: 'a', ...(a === undefined ? {} : { result: a }) },
  { id: 'b', ...(b === undefined ? {} : { result: b }) },
];

describe('twoPlayerResults', () => {
  it.each([
    ['win', 'loss'],
    ['loss', 'win'],
    ['draw', 'draw'],
  ] as const)('accepts %s/%s', (a, b) => {
    expect(twoPlayerResults(game(a, b))).toEqual({ ok: true, results: [a, b] });
  });

  it('answers a consistent pair with one shared constant', () => {
    expect(twoPlayerResults(game('win', 'loss'))).toBe(twoPlayerResults(game('win', 'loss')));
  });

  it.each([
    ['win', 'win'],
    ['loss', 'loss'],
    ['draw', 'win'],
    ['win', undefined],
  ] as const)('rejects %s/%s as inconsistent', (a, b) => {
    expect(twoPlayerResults(game(a, b))).toEqual({
      ok: false,
      rejection: expect.objectContaining({
        code: 'inconsistent-result',
        detail: `results ${String(a)} and ${String(b)} do not fit one game`,
      }),
    });
  });
});
