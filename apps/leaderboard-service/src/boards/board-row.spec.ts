import {
  type LadderConfig,
  ladderRegistry,
  newPlayer,
  RULE_SETS,
  SKILL_PRIOR,
} from '@ranking/rating';
import { boardEntry, memberChange, rowJson, skillJson } from './board-row.js';

const ladders = ladderRegistry();
const row = {
  player: 'p',
  rating: 1700,
  games: 25,
  wins: 15,
  losses: 9,
  draws: 1,
  ratedGames: 19,
  level: 25,
};

/** The row as the API shows it, built the plain way from the rule set: rowJson's oracle. */
function shown(rank: number | null, r: typeof row, ladder: LadderConfig) {
  const fields = RULE_SETS[ladder.ruleSet].outputFields({
    ...newPlayer(r.player, ladder),
    rating: r.rating,
    level: r.level,
  });
  return {
    ...(rank === null ? {} : { rank }),
    player: r.player,
    rating: r.rating,
    games: r.games,
    wins: r.wins,
    losses: r.losses,
    draws: r.draws,
    ratedGames: r.ratedGames,
    ...(typeof fields.title === 'string' ? { title: fields.title } : {}),
    ...(typeof fields.level === 'number' ? { level: fields.level } : {}),
  };
}

describe('board rows', () => {
  describe('from a listed change (the message alone)', () => {
    const igame = ladders.get('igame-gomoku')!;
    const { player, rating, ...standing } = row;
    const change = {
      player,
      before: 1690,
      after: rating,
      delta: 10,
      result: 'win' as const,
      why: { kind: 'elo' },
      standing,
    };

    it('given a change that moved the estimate, then the row a read from PostgreSQL gives', () => {
      const skill = { mu: 27.5, sigma: 6.25 };
      expect(memberChange({ ...change, skill }, igame)).toEqual(
        boardEntry({ ...row, skill }, igame),
      );
    });

    it('given a change that left the estimate, then the board fields, the stored estimate kept', () => {
      const entry = boardEntry(row, igame);
      expect(memberChange(change, igame)).toEqual({ ...entry, keepAfter: 7 });
      expect(entry.data.split('|')).toHaveLength(7);
    });

    it('given eligibility, then ranked as the rows are (i.Game: from 20 rated games)', () => {
      const ranked = { ...change, standing: { ...standing, ratedGames: 20 } };
      expect(memberChange(ranked, igame)).toMatchObject({ ranked: true, score: -1700 });
      expect(memberChange(change, igame)).toMatchObject({ ranked: false });
    });

    it('given a player left without games (a voided only game), then off the board', () => {
      const none = {
        ...change,
        standing: { ...standing, games: 0, wins: 0, losses: 0, draws: 0, ratedGames: 0 },
      };
      expect(memberChange(none, igame)).toEqual({ member: 'p', removed: true });
    });
  });

  it('given i.Game, then a player is ranked only from 20 rated games', () => {
    const igame = ladders.get('igame-gomoku')!;
    expect(boardEntry(row, igame).ranked).toBe(false);
    expect(boardEntry({ ...row, ratedGames: 20 }, igame).ranked).toBe(true);
    expect(boardEntry(row, igame).score).toBe(-1700);
  });

  it('rowJson writes a row with the rule set title or level', () => {
    const xiangqi = ladders.get('qq-xiangqi')!;
    const decoded = JSON.parse(rowJson(null, 'p', boardEntry(row, xiangqi).data, xiangqi)) as {
      title?: unknown;
    };
    expect(decoded).toMatchObject({ player: 'p', rating: 1700, wins: 15, losses: 9, draws: 1 });
    expect(typeof decoded.title).toBe('string');
    const xinbo = ladders.get('xinbo-go')!;
    const stored = boardEntry({ ...row, level: 12 }, xinbo).data;
    expect(JSON.parse(rowJson(null, 'p', stored, xinbo))).toMatchObject({ level: 12 });
  });

  it('rowJson writes the rank first, then the row, as JSON.stringify of the plain object would, for every ladder', () => {
    const xiangqi = ladders.get('qq-xiangqi')!;
    const data = boardEntry(row, xiangqi).data;
    expect(Object.keys(JSON.parse(rowJson(3, 'p', data, xiangqi)))).toEqual([
      'rank',
      'player',
      'rating',
      'games',
      'wins',
      'losses',
      'draws',
      'ratedGames',
      'title',
    ]);
    for (const ladder of ladders.values())
      for (const [player, rating, level] of [
        ['p', 1700, 25],
        ['棋手 "引号" \\ 反斜杠', -15, 1],
        ['\u0000\n', 2600, 9],
      ] as const) {
        const r = { ...row, player, rating, level };
        const stored = boardEntry(r, ladder).data;
        expect(rowJson(null, player, stored, ladder)).toBe(JSON.stringify(shown(null, r, ladder)));
        expect(rowJson(7, player, stored, ladder)).toBe(JSON.stringify(shown(7, r, ladder)));
      }
  });

  it('rowJson writes what JSON cannot hold as null, as JSON.stringify does', () => {
    const xiangqi = ladders.get('qq-xiangqi')!;
    expect(JSON.parse(rowJson(1, 'p', 'x|1|1|0|0|1|25', xiangqi))).toMatchObject({
      rating: null,
      games: 1,
    });
  });

  it('given a live row with a skill estimate, then it reads back as the same doubles; before the first counted game, the prior; rows show neither', () => {
    const xiangqi = ladders.get('qq-xiangqi')!;
    for (const skill of [
      { mu: 27.123456789012345, sigma: 2.0000000000000004 },
      { mu: -3.5e-7, sigma: 8.333333333333334 },
    ]) {
      const stored = boardEntry({ ...row, skill }, xiangqi).data;
      expect(JSON.parse(skillJson(stored)!)).toEqual(skill);
      expect(rowJson(null, 'p', stored, xiangqi)).toBe(
        rowJson(null, 'p', boardEntry(row, xiangqi).data, xiangqi),
      );
    }
    const fresh = boardEntry({ ...row, skill: null }, xiangqi).data;
    expect(JSON.parse(skillJson(fresh)!)).toEqual({ mu: SKILL_PRIOR.mu, sigma: SKILL_PRIOR.sigma });
  });

  it('given a row stored before rows carried the estimate (or a daily row), then it has none to give', () => {
    const xiangqi = ladders.get('qq-xiangqi')!;
    expect(skillJson(boardEntry(row, xiangqi).data)).toBeNull();
  });
});
