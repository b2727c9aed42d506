import type { ListedChange, RatingChangesMessage } from './rating-changes.js';
import { readRatingChanges } from './rating-changes-reader.js';

const standing = { games: 12, wins: 7, losses: 4, draws: 1, ratedGames: 11, level: 25 };
const change: ListedChange = {
  player: 'alice',
  before: 1600,
  after: 1616,
  delta: 16,
  result: 'win',
  why: { kind: 'elo' },
  standing,
  skill: { mu: 27.1, sigma: 7.9 },
};
/** A change that left the estimate where it was. */
const { skill: _unmovedSkill, ...unmoved } = change;
const head = { eventId: 'e-1', ladder: 'igame-gomoku', seq: 7, previousSeq: 4 };

const variants: [string, RatingChangesMessage][] = [
  ['a game', { ...head, type: 'game.finished', changes: [change, { ...change, player: 'bob' }] }],
  ['a correction', { ...head, type: 'game.corrected', changes: [change] }],
  [
    'a penalty (the estimate unmoved: no skill)',
    { ...head, type: 'player.penalized', changes: [{ ...unmoved, result: null }] },
  ],
  [
    'the first message of its ladder',
    { ...head, seq: 1, previousSeq: 0, type: 'game.finished', changes: [change] },
  ],
  [
    'a close listing its changes',
    { ...head, type: 'period.closed', period: 'daily', key: '2026-11-29', changes: [] },
  ],
  [
    'a close summarised',
    {
      ...head,
      type: 'period.closed',
      period: 'weekly',
      key: '2026-W48',
      summary: true,
      moved: 500,
    },
  ],
  [
    'an annulment',
    { ...head, type: 'player.annulled', player: 'mallory', summary: true, moved: 1234 },
  ],
];

describe('the rating-changes contract', () => {
  it.each(variants)('given %s, when written and read back, then the same message', (_, message) => {
    const text = JSON.stringify(message);
    expect(readRatingChanges(text)).toEqual({ ok: true, message });
    expect(readRatingChanges(Buffer.from(text, 'utf8'))).toEqual({ ok: true, message });
  });

  it('given a reason of a kind no reader knows yet and a member it does not know, then it is read all the same', () => {
    const message = {
      ...head,
      type: 'game.finished',
      changes: [{ ...change, why: { kind: 'a-new-rule', weight: 2 } }],
      extra: 'ignored',
    };
    expect(readRatingChanges(JSON.stringify(message))).toEqual({ ok: true, message });
  });

  it.each([
    ['no value', null, 'invalid JSON'],
    ['bytes that are not UTF-8', Buffer.from([0xff, 0xfe, 0x00]), 'not UTF-8'],
    ['not JSON', 'not json', 'invalid JSON'],
    ['an array', '[]', 'must be a JSON object'],
    ['no ladder', { eventId: 'e', seq: 1, type: 'game.finished', changes: [] }, 'ladder'],
    ['a negative seq', { ...head, seq: -1, type: 'game.finished', changes: [] }, '/seq'],
    [
      'no previous seq (a message written before v2)',
      { eventId: 'e', ladder: 'x', seq: 3, type: 'game.finished', changes: [] },
      'previousSeq',
    ],
    [
      'a previous seq not below its seq',
      { ...head, previousSeq: 7, type: 'game.finished', changes: [] },
      '/previousSeq must be below /seq',
    ],
    [
      'a change without its standing',
      { ...head, type: 'game.finished', changes: [{ ...change, standing: undefined }] },
      'standing',
    ],
    [
      'a standing without its rated games',
      {
        ...head,
        type: 'game.finished',
        changes: [{ ...change, standing: { ...standing, ratedGames: undefined } }],
      },
      'ratedGames',
    ],
    [
      'a negative game count',
      {
        ...head,
        type: 'game.finished',
        changes: [{ ...change, standing: { ...standing, games: -1 } }],
      },
      '/changes/0/standing/games',
    ],
    [
      'a skill without its sigma',
      { ...head, type: 'game.finished', changes: [{ ...change, skill: { mu: 25 } }] },
      'sigma',
    ],
    ['a game without changes', { ...head, type: 'game.finished' }, 'changes'],
    ['a game summarised', { ...head, type: 'game.finished', summary: true, moved: 3 }, 'changes'],
    ['a change without its player', { ...head, type: 'game.finished', changes: [{}] }, 'player'],
    [
      'a change without why',
      { ...head, type: 'game.finished', changes: [{ ...change, why: undefined }] },
      'why',
    ],
    [
      'a close without its key',
      { ...head, type: 'period.closed', period: 'daily', changes: [] },
      'key',
    ],
    [
      'a close with a key of no period shape',
      { ...head, type: 'period.closed', period: 'daily', key: 'today', changes: [] },
      '/key',
    ],
    [
      'a summary without its count',
      { ...head, type: 'period.closed', period: 'daily', key: '2026-11-29', summary: true },
      'moved',
    ],
    [
      'both changes and a summary',
      {
        ...head,
        type: 'period.closed',
        period: 'daily',
        key: '2026-11-29',
        summary: true,
        moved: 1,
        changes: [],
      },
      '/changes is not allowed',
    ],
    [
      'an annulment without its player',
      { ...head, type: 'player.annulled', summary: true, moved: 1 },
      'player',
    ],
    [
      'an annulment listing changes',
      { ...head, type: 'player.annulled', player: 'm', changes: [] },
      'summary',
    ],
    ['an unknown type', { ...head, type: 'game.started', changes: [] }, '/type'],
  ])('given %s, then one line saying why it cannot be read', (_, value, why) => {
    const raw =
      value === null || typeof value === 'string' || value instanceof Buffer
        ? value
        : JSON.stringify(value);
    const read = readRatingChanges(raw);
    expect(read.ok).toBe(false);
    if (!read.ok) {
      expect(read.reason).toContain(why);
      expect(read.reason).not.toContain('\n');
    }
  });
});
