import { SkillGames } from './skill-games.js';

describe('SkillGames', () => {
  it('Given saved games, When one is read back, Then it holds its finish, players and four numbers each', () => {
    const games = new SkillGames();
    const slot = games.add('g1', 1000, ['ann', 'bob']);
    games.write(slot, 0, 25, 8, 27, 7.5);
    games.write(slot, 1, 24, 6, 22, 5.5);
    expect(games.game('g1')).toEqual({
      finishedAt: 1000,
      players: ['ann', 'bob'],
      skills: [25, 8, 27, 7.5, 24, 6, 22, 5.5],
    });
    expect(games.slotOf('g2')).toBe(-1);
    expect(games.game('g2')).toBeUndefined();
  });

  it('Given a game id saved again with another number of players, When read back, Then the later game replaces it and the others stay', () => {
    // Given
    const games = new SkillGames();
    const a = games.add('g1', 1, ['ann', 'bob']);
    games.write(a, 0, 1, 2, 3, 4);
    games.write(a, 1, 5, 6, 7, 8);
    const b = games.add('g2', 2, ['cat', 'dan']);
    games.write(b, 0, 9, 9, 9, 9);
    games.write(b, 1, 9, 9, 9, 9);
    // When
    const again = games.add('g1', 3, ['eve', 'fay', 'gus']);
    for (let i = 0; i < 3; i++) games.write(again, i, i, i, i, i);
    // Then: one slot per id, in the order first saved.
    expect(again).toBe(a);
    expect([...games.gameIds()]).toEqual(['g1', 'g2']);
    expect(games.game('g1')).toEqual({
      finishedAt: 3,
      players: ['eve', 'fay', 'gus'],
      skills: [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2],
    });
    expect(games.game('g2')!.players).toEqual(['cat', 'dan']);
  });
});
