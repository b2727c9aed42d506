import { OutcomeTally } from './message-outcome.js';

describe('OutcomeTally', () => {
  it('adds up counts by outcome and reason, leaving out zeros', () => {
    const tally = new OutcomeTally();
    tally.add('applied', 3);
    tally.add('rejected', 1, 'invalid-json');
    tally.add('rejected', 2, 'invalid-json');
    tally.add('rejected', 1, 'unknown-ladder');
    tally.add('applied');
    tally.add('void', 0);
    expect(tally.list()).toEqual([
      { outcome: 'applied', count: 4 },
      { outcome: 'rejected', reason: 'invalid-json', count: 3 },
      { outcome: 'rejected', reason: 'unknown-ladder', count: 1 },
    ]);
  });
});
