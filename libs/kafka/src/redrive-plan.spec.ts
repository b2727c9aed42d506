import { UNPROCESSABLE } from '@ranking/contracts';
import {
  type DeadLetter,
  letterKey,
  planRedrive,
  reasonRefusal,
  type RedriveObservation,
  redriveOutcome,
} from './redrive-plan.js';

const game = (id: string, ladder = 'igame-gomoku') =>
  JSON.stringify({
    id,
    type: 'game.finished',
    ladder,
    gameId: id,
    finishedAt: '2026-11-01T10:00:00+08:00',
    moves: 41,
    reason: 'five',
    players: [
      { id: 'alice', result: 'win', side: 'black', first: true },
      { id: 'bob', result: 'loss', side: 'white', first: false },
    ],
  });

let offset = 0;
const letter = (over: Partial<DeadLetter> & { id?: string } = {}): DeadLetter => ({
  partition: 0,
  offset: String(offset++),
  timestamp: 1_000,
  key: Buffer.from('some-key'),
  value: Buffer.from(game(over.id ?? `g-${offset}`)),
  reason: UNPROCESSABLE,
  detail: 'boom',
  rejectedBy: 'rating-service',
  producer: null,
  ...over,
});

describe('reasonRefusal', () => {
  it('lets unprocessable through and refuses every other reason with why', () => {
    expect(reasonRefusal(UNPROCESSABLE)).toBeUndefined();
    expect(reasonRefusal('invalid-event')).toMatch(
      /^--reason invalid-event: only unprocessable dead letters are sent again\. .*own fault \(CONTRACT\.md\)/,
    );
  });
});

describe('planRedrive', () => {
  it('sends a ladder-log dead letter to the ladder log under its ladder, an intake one to the intake under its key', () => {
    const fromRating = letter({ id: 'g-a', key: Buffer.from('whatever') });
    const fromIntake = letter({ id: 'g-b', rejectedBy: 'intake-service', producer: 'gomoku' });
    const fromMaintenance = letter({ id: 'g-c', rejectedBy: 'maintenance-service' });
    const { redrives } = planRedrive(
      [fromRating, fromIntake, fromMaintenance],
      { reason: UNPROCESSABLE },
      new Set(),
    );
    expect(redrives.map((r) => [r.eventId, r.route, r.consumer, r.key, r.producer])).toEqual([
      ['g-a', 'ladder-log', 'rating-service', 'igame-gomoku', null],
      ['g-b', 'intake', 'intake-service', fromIntake.key, 'gomoku'],
      ['g-c', 'ladder-log', 'maintenance-service', 'igame-gomoku', null],
    ]);
  });

  it('keeps the key of a ladder-log message whose value names no ladder (it cannot be parsed)', () => {
    const odd = letter({ value: Buffer.from('{"id":"x"'), key: Buffer.from('igame-go') });
    expect(planRedrive([odd], { reason: UNPROCESSABLE }, new Set()).redrives[0]!.key).toEqual(
      odd.key,
    );
  });

  it('leaves out other reasons, dead letters before --since and those sent before (unless asked), counting each', () => {
    const sentBefore = letter();
    const early = letter({ timestamp: 10 });
    const bad = letter({ reason: 'invalid-event' });
    const unknown = letter({ rejectedBy: 'someone-else' });
    // The intake's, from before producers: no topic to send it back to.
    const noProducer = letter({ rejectedBy: 'intake-service' });
    const due = letter();
    const all = [sentBefore, early, bad, unknown, noProducer, due];
    const plan = planRedrive(
      all,
      { reason: UNPROCESSABLE, since: 500 },
      new Set([letterKey(sentBefore)]),
    );
    expect(plan.redrives.map((r) => r.letters)).toEqual([[due]]);
    expect(plan.skipped).toEqual({
      otherReasons: { 'invalid-event': 1 },
      beforeSince: 1,
      alreadyRedriven: 1,
      unknownOrigin: [unknown, noProducer],
    });
    const again = planRedrive(
      all,
      { reason: UNPROCESSABLE, includeRedriven: true },
      new Set([letterKey(sentBefore)]),
    );
    expect(again.redrives.map((r) => r.letters)).toEqual([[sentBefore], [early], [due]]);
  });

  it('sends a message two consumers set aside once, with both dead letters, in the order they lie', () => {
    const value = Buffer.from(game('g-twice'));
    const byMaintenance = letter({
      partition: 1,
      offset: '5',
      value,
      rejectedBy: 'maintenance-service',
    });
    const byRating = letter({ partition: 0, offset: '9', value });
    const { redrives } = planRedrive(
      [byMaintenance, byRating],
      { reason: UNPROCESSABLE },
      new Set(),
    );
    expect(redrives).toHaveLength(1);
    expect(redrives[0]!.consumer).toBe('rating-service');
    expect(redrives[0]!.letters).toEqual([byRating, byMaintenance]);
  });
});

describe('redriveOutcome', () => {
  const seen: RedriveObservation = {
    route: 'ladder-log',
    consumer: 'rating-service',
    storedBefore: false,
    storedNow: false,
    passed: false,
  };
  it('tells applied, repeat, rejected and pending apart', () => {
    expect(redriveOutcome({ ...seen, storedNow: true, passed: true }).status).toBe('applied');
    expect(redriveOutcome({ ...seen, storedBefore: true, storedNow: true }).status).toBe('pending');
    expect(
      redriveOutcome({ ...seen, storedBefore: true, storedNow: true, passed: true }).status,
    ).toBe('repeat');
    expect(
      redriveOutcome({
        ...seen,
        passed: true,
        rejection: { code: UNPROCESSABLE, by: 'rating-service' },
      }),
    ).toMatchObject({ status: 'rejected', code: UNPROCESSABLE, by: 'rating-service' });
    expect(redriveOutcome(seen).status).toBe('pending');
  });

  it('the intake: applied once stored, a repeat when it was stored before, rejected by its answer', () => {
    const intake = { ...seen, route: 'intake' as const, consumer: 'intake-service' };
    expect(redriveOutcome(intake).status).toBe('pending');
    expect(redriveOutcome({ ...intake, storedNow: true }).status).toBe('applied');
    expect(redriveOutcome({ ...intake, storedBefore: true, storedNow: true }).status).toBe(
      'repeat',
    );
    expect(
      redriveOutcome({ ...intake, rejection: { code: 'unknown-ladder', by: 'intake-service' } }),
    ).toMatchObject({ status: 'rejected', code: 'unknown-ladder' });
  });

  it('the maintenance service: applied once it passed the copy without a rejection', () => {
    const maintenance = { ...seen, consumer: 'maintenance-service', storedBefore: true };
    expect(redriveOutcome(maintenance).status).toBe('pending');
    expect(redriveOutcome({ ...maintenance, passed: true }).status).toBe('applied');
  });
});
