import { producerNameProblem, producerRejectionTopic, producerTopic } from './producers.js';

describe('producer names (CONTRACT.md "Transport", Producers)', () => {
  it.each(['gomoku-eu-1', 'a', '9-lives', 'x'.repeat(40), 'simulator'])(
    'Given %s, Then it is a producer name',
    (name) => expect(producerNameProblem(name)).toBeNull(),
  );

  it.each(['', 'Gomoku', '-gomoku', 'x'.repeat(41), 'go.moku', 'go_moku', 'go:moku', 'gö'])(
    'Given %j, Then it is refused by the grammar',
    (name) => expect(producerNameProblem(name)).toMatch(/1 to 40 lower-case/),
  );

  it.each(['annulment', 'rejected'])(
    'Given %s, which the grammar allows, Then it is reserved by the system',
    (name) => expect(producerNameProblem(name)).toMatch(/reserved/),
  );

  it('Given a producer, Then its topics are under the contract’s intake and rejection names', () => {
    expect(producerTopic('gomoku-eu-1')).toBe('ranking.game-results.gomoku-eu-1');
    expect(producerRejectionTopic('gomoku-eu-1', 't1.')).toBe(
      't1.ranking.game-results.rejected.gomoku-eu-1',
    );
  });
});
