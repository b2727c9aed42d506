import { ladderRegistry, GameResultAdmission } from '@ranking/rating';
import { gameResult, penaltyEvent } from '@ranking/testing';
import { decideSubmission, MAX_EVENTS_PER_SUBMISSION } from './submission.js';
import type { ServiceGrant } from './service-grant.js';

const admission = new GameResultAdmission(ladderRegistry());
const grant: ServiceGrant = {
  tokenId: '0123456789ab',
  service: 'gomoku',
  producer: 'gomoku',
  ladders: ['igame-gomoku'],
  scopes: ['ingest'],
};

/** A game in the producer's namespace (`gomoku:<id>`). */
const game = (id: string, over: Record<string, unknown> = {}) => gameResult(`gomoku:${id}`, over);

const penalty = (id: string) => penaltyEvent(`gomoku:${id}`);

describe('decideSubmission', () => {
  it('Given one valid event (not in an array), When decided, Then it is accepted as its compact JSON with its ladder and digest', () => {
    const event = game('a');
    const decided = decideSubmission(admission, grant, event);
    expect(decided.kind).toBe('accepted');
    if (decided.kind !== 'accepted') return;
    expect(decided.events).toHaveLength(1);
    const [sent] = decided.events;
    expect(sent).toMatchObject({
      index: 0,
      id: 'gomoku:a',
      ladder: 'igame-gomoku',
      repeatInRequest: false,
    });
    expect(sent!.value.toString('utf8')).toBe(JSON.stringify(event));
    expect(sent!.digest).toHaveLength(32);
  });

  it('Given the same id twice in a request, When decided, Then the second is marked a repeat of the request', () => {
    const decided = decideSubmission(admission, grant, [game('a'), game('b'), game('a')]);
    expect(decided.kind === 'accepted' && decided.events.map((e) => e.repeatInRequest)).toEqual([
      false,
      false,
      true,
    ]);
  });

  it('Given an empty array or one over the limit, When decided, Then it is empty or too many, whatever the events hold', () => {
    expect(decideSubmission(admission, grant, [])).toEqual({ kind: 'empty' });
    const many = Array.from({ length: MAX_EVENTS_PER_SUBMISSION + 1 }, () => 'junk');
    expect(decideSubmission(admission, grant, many)).toEqual({ kind: 'too-many', count: 501 });
  });

  it('Given an event of a ladder outside the grant, When decided, Then the request is forbidden before any event is judged', () => {
    const decided = decideSubmission(admission, grant, [
      'junk',
      game('a', { ladder: 'qq-xiangqi' }),
      game('b', { ladder: 'no-such-ladder' }),
    ]);
    expect(decided).toEqual({ kind: 'forbidden', ladders: ['no-such-ladder', 'qq-xiangqi'] });
  });

  it('Given refused events among valid ones, When decided, Then every refused one is listed with its index, id and the intake’s code, and none is accepted', () => {
    const decided = decideSubmission(admission, grant, [
      game('ok'),
      penalty('pen'),
      gameResult('annulment:x'),
      gameResult('chess:x'),
      game('both', {
        players: [
          { id: 'a', result: 'win', side: 'black', first: true },
          { id: 'b', result: 'win', side: 'white', first: false },
        ],
      }),
      42,
      game('huge', { note: 'x'.repeat(65_536) }),
    ]);
    expect(decided.kind).toBe('rejected');
    if (decided.kind !== 'rejected') return;
    expect(decided.count).toBe(7);
    expect(decided.rejected.map(({ index, id, code }) => ({ index, id, code }))).toEqual([
      { index: 1, id: 'gomoku:pen', code: 'not-permitted' },
      { index: 2, id: 'annulment:x', code: 'not-permitted' },
      // Another producer's namespace.
      { index: 3, id: 'chess:x', code: 'not-permitted' },
      { index: 4, id: 'gomoku:both', code: 'inconsistent-result' },
      { index: 5, id: null, code: 'invalid-event' },
      // Over 65,536 bytes: decided before parsing, so its id is not read (CONTRACT.md, Size).
      { index: 6, id: null, code: 'invalid-event' },
    ]);
  });

  it('Given any event, When decided, Then the decision is the intake’s decision of the same bytes', () => {
    for (const event of [
      game('x'),
      game('y', { moves: -1 }),
      gameResult('x'),
      { ...game('z'), type: 'period.closed' },
    ]) {
      const decided = decideSubmission(admission, grant, event);
      const intake = admission.admit(Buffer.from(JSON.stringify(event)), {
        name: 'gomoku',
        ladders: grant.ladders,
      });
      expect(decided.kind === 'accepted').toBe(intake.admitted);
      if (decided.kind === 'rejected' && !intake.admitted)
        expect(decided.rejected[0]).toMatchObject(intake.rejection);
    }
  });

  it('Given a token that belongs to no producer, When it submits, Then nothing is judged: no namespace', () => {
    expect(decideSubmission(admission, { ...grant, producer: null }, game('a'))).toEqual({
      kind: 'no-producer',
    });
  });
});
