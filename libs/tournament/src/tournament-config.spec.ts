import {
  checkTournamentConfig,
  checkTournamentConfigs,
  tournamentLadders,
} from './tournament-config.js';

const valid = {
  id: 'spring-cup',
  ladder: 'qq-gomoku',
  groups: [
    { id: 'g1', players: ['a', 'b', 'c'] },
    { id: 'g2', ladder: 'qq-gomoku-free', players: ['d', 'e', 'f'] },
  ],
  advancement: { perGroup: 2, playoff: { group: 'po', places: 1 } },
};
const LADDERS = new Set(['qq-gomoku', 'qq-gomoku-free']);

describe('tournament configuration', () => {
  it('fills in the defaults: name, group ladders, the play-off ladder', () => {
    expect(checkTournamentConfig(valid, LADDERS)).toEqual({
      id: 'spring-cup',
      name: 'spring-cup',
      ladder: 'qq-gomoku',
      groups: [
        { id: 'g1', ladder: 'qq-gomoku', players: ['a', 'b', 'c'] },
        { id: 'g2', ladder: 'qq-gomoku-free', players: ['d', 'e', 'f'] },
      ],
      advancement: { perGroup: 2, playoff: { group: 'po', ladder: 'qq-gomoku', places: 1 } },
    });
  });

  it('names every ladder its games are played on', () => {
    expect(tournamentLadders(checkTournamentConfig(valid))).toEqual([
      'qq-gomoku',
      'qq-gomoku-free',
    ]);
  });

  it('defaults to the top two per group and no play-off group', () => {
    const config = checkTournamentConfig({ ...valid, advancement: undefined });
    expect(config.advancement).toEqual({ perGroup: 2, playoff: null });
  });

  it.each([
    ['a bad id', { ...valid, id: 'Spring Cup' }, 'tournament Spring Cup: id must match'],
    [
      'an unknown ladder',
      { ...valid, ladder: 'qq-go' },
      'ladder "qq-go" is not a configured ladder',
    ],
    ['no groups', { ...valid, groups: [] }, 'groups must be a non-empty array'],
    [
      'a group of one',
      { ...valid, groups: [{ id: 'g1', players: ['a'] }, valid.groups[1]] },
      'groups[0].players must list at least two players',
    ],
    [
      'a player in two groups',
      { ...valid, groups: [valid.groups[0], { id: 'g2', players: ['d', 'a', 'f'] }] },
      'groups[1].players "a" is already in group "g1"',
    ],
    [
      'a group id used twice',
      { ...valid, groups: [valid.groups[0], { ...valid.groups[0], players: ['x', 'y', 'z'] }] },
      'groups[1].id "g1" is used twice',
    ],
    [
      'everyone through',
      { ...valid, advancement: { perGroup: 3 } },
      'advancement.perGroup must be a whole number from 1 to 2',
    ],
    [
      'a play-off group named like a group',
      { ...valid, advancement: { playoff: { group: 'g1', places: 1 } } },
      'advancement.playoff.group "g1" is already a group',
    ],
    [
      'as many play-off places as entrants',
      { ...valid, advancement: { playoff: { places: 2 } } },
      'advancement.playoff.places must be a whole number from 1 to 1',
    ],
    [
      'no player left for the play-off',
      {
        ...valid,
        advancement: { perGroup: 2, playoff: { places: 1 } },
        groups: [
          { id: 'g1', players: ['a', 'b'] },
          { id: 'g2', players: ['c', 'd'] },
        ],
      },
      'advancement.perGroup must be a whole number from 1 to 1',
    ],
  ])('refuses %s, naming the field', (_name, value, message) => {
    expect(() => checkTournamentConfig(value, LADDERS)).toThrow(message);
  });

  it('refuses two tournaments with one id', () => {
    expect(() => checkTournamentConfigs([valid, valid], LADDERS)).toThrow(
      'tournament spring-cup: id is used twice',
    );
  });
});
