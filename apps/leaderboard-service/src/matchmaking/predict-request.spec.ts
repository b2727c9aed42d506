import { BadRequestException } from '@nestjs/common';
import { ladderRegistry } from '@ranking/rating';
import { proposedGame } from './predict-request.js';

const ladders = ladderRegistry();
const ladder = (id: string) => ladders.get(id)!;

/** The 400's message for a body, or the game when it is valid. */
function outcome(body: unknown, id = 'qq-xiangqi'): unknown {
  try {
    return proposedGame(body, ladder(id));
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    const answer = (error as BadRequestException).getResponse() as Record<string, unknown>;
    expect(answer).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    return answer.message;
  }
}

describe('proposedGame (POST /ladders/:ladder/predict)', () => {
  it.each([
    ['qq-xiangqi', [['a'], ['b']]],
    ['igame-gomoku-casual', [['a'], ['b']]],
    ['qq-blokus', [['a'], ['b']]],
    [
      'qq-blokus',
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    ],
    ['qq-fifty-k', [['a'], ['b'], ['c']]],
    [
      'qq-fifty-k',
      [
        ['a', 'c'],
        ['b', 'd'],
      ],
    ],
  ])('given a game %s plays (%j), then it is taken as it is', (id, teams) => {
    expect(outcome({ teams }, id)).toEqual({ teams });
  });

  it.each([
    [
      'qq-xiangqi',
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
      /"qq-xiangqi" \(qq-elo\) plays 2 sides of 1, not 2 sides of 2/,
    ],
    ['qq-xiangqi', [['a'], ['b'], ['c']], /plays 2 sides of 1, not 3 sides of 1/],
    [
      'qq-blokus',
      [['a', 'b'], ['c']],
      /\(squares\) plays 2 sides of 1 or 2 sides of 2, not sides of 2, 1/,
    ],
    ['qq-blokus', [['a'], ['b'], ['c']], /not 3 sides of 1/],
    [
      'qq-fifty-k',
      [['a'], ['b']],
      /\(card-points\) plays 3 sides of 1 or 2 sides of 2, not 2 sides of 1/,
    ],
    ['qq-fifty-k', [['a', 'b'], ['c'], ['d']], /not sides of 2, 1, 1/],
  ])('given %s and %j, then 400 naming its shapes', (id, teams, message) => {
    expect(outcome({ teams }, id)).toMatch(message);
  });

  it.each([
    ['no body', undefined, /the body must be a JSON object with the teams of the game/],
    ['an array', [['a'], ['b']], /the body must be a JSON object/],
    ['a string', 'a vs b', /the body must be a JSON object/],
    ['no teams', {}, /^teams is required/],
    [
      'another field',
      { teams: [['a'], ['b']], colour: 'red' },
      /^"colour" is not a field of a proposed game/,
    ],
    ['teams not a list', { teams: 'a,b' }, /^teams must be a list of 2 to 4 sides/],
    ['one side', { teams: [['a']] }, /^teams must be a list of 2 to 4 sides/],
    [
      'a side not a list',
      { teams: [['a'], 'b'] },
      /^teams\[1\] must be a list of 1 to 4 player ids/,
    ],
    ['an empty side', { teams: [[], ['b']] }, /^teams\[0\] must be a list of 1 to 4 player ids/],
    [
      'a number for a player',
      { teams: [['a'], [7]] },
      /^teams\[1\]\[0\] must be a player id: 1 to 128 characters/,
    ],
    [
      'an empty id',
      {
        teams: [
          ['a', ''],
          ['b', 'c'],
        ],
      },
      /^teams\[0\]\[1\] must be a player id/,
    ],
    ['a control character', { teams: [['a'], ['b\n']] }, /^teams\[1\]\[0\] must be a player id/],
    [
      'a 129-character id',
      { teams: [['a'], ['x'.repeat(129)]] },
      /^teams\[1\]\[0\] must be a player id/,
    ],
    [
      'a player twice',
      { teams: [['a'], ['a']] },
      /^teams\[1\]\[0\]: player "a" is already in the game at teams\[0\]\[0\]/,
    ],
  ])('given %s, then 400 naming the path', (_what, body, message) => {
    expect(outcome(body)).toMatch(message);
  });
});
