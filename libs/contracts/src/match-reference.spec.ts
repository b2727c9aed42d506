import { validateEvent } from './event-validator.js';

// ADR 0009: a tournament game carries context.match = {tournament, group, match} beside
// context.tournament = true. The field is optional, so every v1 event stays valid.

const v1Game = {
  id: 'e-1',
  type: 'game.finished',
  ladder: 'qq-gomoku',
  gameId: 'g-1',
  finishedAt: '2026-03-21T19:00:00+08:00',
  moves: 37,
  reason: 'five',
  context: { boardSize: 15, tournament: true },
  players: [
    { id: 'alice', result: 'win', side: 'black', first: true },
    { id: 'bob', result: 'loss', side: 'white', first: false },
  ],
};
const match = { tournament: 'qq-2006-spring', group: 'g1', match: 'g1-alice-bob' };
const withMatch = { ...v1Game, context: { ...v1Game.context, match } };

const codeOf = (value: unknown): string => {
  const outcome = validateEvent(JSON.parse(JSON.stringify(value)));
  return outcome.ok ? 'ok' : `${outcome.rejection.code}: ${outcome.rejection.detail}`;
};

describe('the tournament match reference (context.match)', () => {
  it.each([
    ['a v1 tournament game without a reference', v1Game],
    ['a v1 game without any context', { ...v1Game, context: undefined }],
    ['a game with the reference', withMatch],
    [
      'a no-show recorded by the referee',
      {
        ...withMatch,
        moves: 0,
        reason: 'no-show',
      },
    ],
  ])('accepts %s', (_name, event) => {
    expect(codeOf(event)).toBe('ok');
  });

  it.each([
    [
      'a reference on a game not marked as a tournament game',
      { ...withMatch, context: { match } },
      '/context',
    ],
    [
      'a reference with context.tournament false',
      { ...withMatch, context: { tournament: false, match } },
      '/context/tournament',
    ],
    [
      'a reference without its group',
      { ...withMatch, context: { tournament: true, match: { ...match, group: undefined } } },
      'group is required',
    ],
    [
      'an empty match id',
      { ...withMatch, context: { tournament: true, match: { ...match, match: '' } } },
      '/context/match/match',
    ],
    [
      'a reference that is not an object',
      { ...withMatch, context: { tournament: true, match: 'g1-alice-bob' } },
      '/context/match',
    ],
  ])('rejects %s as invalid-event, naming the field', (_name, event, field) => {
    const verdict = codeOf(event);
    expect(verdict).toMatch(/^invalid-event: /);
    expect(verdict).toContain(field);
  });
});
