import { GameResultAdmission, ladderRegistry } from '@ranking/rating';
import { gameResult } from '@ranking/testing';
import { isWellFormedEventId, MAX_EVENT_ID_CODE_POINTS } from './event-id.js';
import { leavesReceipt } from './refusal-receipts.js';
import type { ServiceGrant } from './service-grant.js';
import { decideSubmission } from './submission.js';

const admission = new GameResultAdmission(ladderRegistry());
const grant: ServiceGrant = {
  tokenId: '0123456789ab',
  service: 'gomoku',
  producer: 'gomoku',
  ladders: ['igame-gomoku'],
  scopes: ['ingest'],
};

describe('isWellFormedEventId', () => {
  it('Given strings of 1 to 128 code points, Then each is an id, astral characters counted once', () => {
    for (const id of [
      'a',
      'x'.repeat(MAX_EVENT_ID_CODE_POINTS),
      '😀'.repeat(128),
      `${'😀'.repeat(127)}a`,
    ])
      expect({ id, ok: isWellFormedEventId(id) }).toEqual({ id, ok: true });
  });

  it('Given the empty string, 129 code points, a long string or no string, Then none is an id', () => {
    for (const id of ['', 'x'.repeat(129), '😀'.repeat(129), 'x'.repeat(100_000), null, 7, {}])
      expect(isWellFormedEventId(id)).toBe(false);
  });
});

describe('leavesReceipt', () => {
  const refused = (body: unknown[]) => {
    const decided = decideSubmission(admission, grant, body);
    if (decided.kind !== 'rejected') throw new Error(`not rejected: ${decided.kind}`);
    return decided.rejected;
  };

  it('Given a refused event with an id of 1 to 128 code points and a ladder, Then it leaves a receipt', () => {
    const [wrong] = refused([gameResult('gomoku:g-1', { moves: -1 })]);
    expect(wrong).toMatchObject({
      id: 'gomoku:g-1',
      ladder: 'igame-gomoku',
      code: 'invalid-event',
    });
    expect(leavesReceipt(wrong!)).toBe(true);
  });

  it('Given refused events with an id over 128 code points, without a string id, or without a string ladder, Then none leaves a receipt, though each is refused', () => {
    const long = gameResult('x'.repeat(129));
    const noLadder: Record<string, unknown> = { ...gameResult('g-2') };
    delete noLadder.ladder;
    const numericLadder = { ...gameResult('g-3'), ladder: 7 };
    const numericId = { ...gameResult('g-4'), id: 4 };
    const rejected = refused([long, noLadder, numericLadder, numericId, gameResult('')]);
    expect(rejected.map((r) => r.index)).toEqual([0, 1, 2, 3, 4]);
    expect(rejected[0]!.id).toBe(long.id);
    expect(rejected.filter(leavesReceipt)).toEqual([]);
  });
});
