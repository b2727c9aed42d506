import { createHash } from 'node:crypto';
import { eventStatus, readRefusal } from './event-status.js';
import type { EventTraces, Receipt, StoredEvent } from './event-traces.js';
import type { ServiceGrant } from './service-grant.js';

const digest = (text: string) => createHash('sha256').update(text).digest();
const at = new Date('2026-12-06T00:00:00Z');
const receipt = (over: Partial<Receipt> = {}): Receipt => ({
  producer: 'gomoku',
  ladder: 'igame-gomoku',
  digest: digest('sent'),
  status: 'accepted',
  code: null,
  detail: null,
  receivedAt: at,
  ...over,
});
const stored = (over: Partial<StoredEvent> = {}): StoredEvent => ({
  ladder: 'igame-gomoku',
  type: 'game.finished',
  position: '7',
  digest: digest('sent'),
  recordedAt: at,
  voidReason: null,
  ...over,
});
const traces = (over: Partial<EventTraces> = {}): EventTraces => ({
  receipt: null,
  stored: null,
  rejection: null,
  ...over,
});
const rejection = {
  by: 'rating-service',
  ladder: 'igame-gomoku',
  code: 'unprocessable',
  detail: 'boom',
  rejectedAt: at,
};
const grant: ServiceGrant = {
  tokenId: 't',
  service: 'gomoku',
  producer: 'gomoku',
  ladders: ['igame-gomoku'],
  scopes: ['ingest'],
};

describe('eventStatus', () => {
  it('Given nothing known, Then there is no status', () => {
    expect(eventStatus('e', traces())).toBeNull();
  });
  it('Given a receipt only, Then it was received (or rejected by the api, with its code)', () => {
    expect(eventStatus('e', traces({ receipt: receipt() }))).toMatchObject({ status: 'received' });
    expect(
      eventStatus(
        'e',
        traces({
          receipt: receipt({ status: 'rejected', code: 'inconsistent-result', detail: 'd' }),
        }),
      ),
    ).toMatchObject({ status: 'rejected', by: 'api', code: 'inconsistent-result', detail: 'd' });
  });
  it('Given the event stored as sent, Then it is applied, or void with its reason', () => {
    expect(eventStatus('e', traces({ receipt: receipt(), stored: stored() }))).toEqual({
      status: 'applied',
      id: 'e',
      ladder: 'igame-gomoku',
      position: '7',
      appliedAt: at.toISOString(),
    });
    expect(eventStatus('e', traces({ stored: stored({ voidReason: 'same-ip' }) }))).toMatchObject({
      status: 'void',
      reason: 'same-ip',
    });
  });
  it('Given another event stored under the id the api sent, Then the one sent was ignored as a repeat', () => {
    expect(
      eventStatus('e', traces({ receipt: receipt(), stored: stored({ digest: digest('other') }) })),
    ).toMatchObject({ status: 'ignored-as-repeat', position: '7' });
  });
  it('Given a service’s rejection, Then it is rejected by that service, unless the event was stored since (a redrive)', () => {
    expect(eventStatus('e', traces({ receipt: receipt(), rejection }))).toMatchObject({
      status: 'rejected',
      by: 'rating-service',
      code: 'unprocessable',
    });
    expect(eventStatus('e', traces({ rejection, stored: stored() }))).toMatchObject({
      status: 'applied',
    });
  });
});

describe('readRefusal', () => {
  it('Given an id in the producer’s namespace, Then its token may read what is known of it', () => {
    expect(readRefusal(grant, 'gomoku:e', traces({ receipt: receipt() }))).toBeNull();
    expect(readRefusal(grant, 'gomoku:e', traces({ stored: stored() }))).toBeNull();
    expect(readRefusal(grant, 'gomoku:e', traces({ rejection }))).toBeNull();
    // Unknown yet: the answer is then 404, not 403.
    expect(readRefusal(grant, 'gomoku:e', traces())).toBeNull();
  });

  it('Given an id in another producer’s namespace, Then it is refused whatever is known of it', () => {
    for (const known of [
      traces(),
      traces({ receipt: receipt({ producer: 'chess' }) }),
      traces({ stored: stored() }),
    ])
      expect(readRefusal(grant, 'chess:e', known)).toMatch(
        /not in the namespace of the producer gomoku/,
      );
    // A namespace the name only begins.
    expect(readRefusal(grant, 'gomoku-2:e', traces())).toMatch(/namespace/);
    expect(readRefusal(grant, 'e', traces({ stored: stored() }))).toMatch(/namespace/);
  });

  it('Given a reserved id or a token of no producer, Then it is refused', () => {
    expect(
      readRefusal(
        grant,
        'period.closed:igame-gomoku:daily:2026-12-04',
        traces({ stored: stored() }),
      ),
    ).toMatch(/reserved/);
    expect(readRefusal({ ...grant, producer: null }, 'gomoku:e', traces())).toMatch(/no producer/);
  });

  it('Given its own namespace on a ladder the token may not use, or not a game, Then it is refused', () => {
    expect(
      readRefusal(grant, 'gomoku:e', traces({ stored: stored({ ladder: 'qq-xiangqi' }) })),
    ).toMatch(/may not use/);
    expect(
      readRefusal(grant, 'gomoku:e', traces({ rejection: { ...rejection, ladder: 'qq-xiangqi' } })),
    ).toMatch(/may not use/);
    expect(
      readRefusal(grant, 'gomoku:e', traces({ stored: stored({ type: 'player.penalized' }) })),
    ).toMatch(/not a game result/);
    expect(
      readRefusal(grant, 'gomoku:e', traces({ receipt: receipt({ producer: 'other' }) })),
    ).toMatch(/another producer/);
  });
});
