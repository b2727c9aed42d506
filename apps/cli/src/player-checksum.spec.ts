import { BUILT_IN_LADDERS, newPlayer, type SkillState } from '@ranking/rating';
import { differingPlayers, playersChecksum } from './player-checksum.js';

const ladder = BUILT_IN_LADDERS.find((l) => l.id === 'igame-gomoku')!;
const skill = (mu: number): SkillState => ({ mu, sigma: 8, lastPlayedAt: null });

describe('differingPlayers', () => {
  it('Given two sets of players, Then it names, in code-unit order, those whose checksum line differs: state, estimate, or present on one side only', () => {
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((id) => newPlayer(id, ladder));
    const live = {
      players: [a!, b!, c!],
      skills: new Map([
        ['a', skill(25)],
        ['c', skill(25)],
      ]),
    };
    const same = { players: [c!, b!, a!], skills: new Map(live.skills) };
    expect(differingPlayers(live, same)).toEqual([]);
    expect(playersChecksum(live.players, live.skills)).toBe(
      playersChecksum(same.players, same.skills),
    );
    const other = {
      players: [{ ...a!, rating: a!.rating + 1 }, b!, d!],
      skills: new Map([
        ['a', skill(25)],
        ['c', skill(26)],
      ]),
    };
    expect(differingPlayers(live, other)).toEqual(['a', 'c', 'd']);
    expect(differingPlayers(live, { players: live.players, skills: new Map() })).toEqual([
      'a',
      'c',
    ]);
  });
});
