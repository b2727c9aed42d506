import { createHash } from 'node:crypto';
import { eventStatus, readRefusal } from './event-status.js';
import type { EventTraces, Receipt, StoredEvent } from './event-traces.js';
import type { ServiceGrant } from './service-grant.js';

const digest = (text: string) => createHash('sha256').update(text).digest();
const at = new Date('2026-12-06T00:00:00Z');
const receipt = (over: Partial<Receipt> = {}): Receipt => ({
  service: 'gomoku',
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
  it('Given a receipt, Then only its service may read it', () => {
    expect(readRefusal(grant, 'e', traces({ receipt: receipt() }))).toBeNull();
    expect(
      readRefusal({ ...grant, service: 'other' }, 'e', traces({ receipt: receipt() })),
    ).toMatch(/another service/);
  });
  it('Given no receipt, Then a game of the token’s ladders may be read, and nothing else', () => {
    expect(readRefusal(grant, 'e', traces({ stored: stored() }))).toBeNull();
    expect(readRefusal(grant, 'e', traces())).toBeNull();
    expect(readRefusal(grant, 'e', traces({ stored: stored({ ladder: 'qq-xiangqi' }) }))).toMatch(
      /may not use/,
    );
    expect(
      readRefusal(grant, 'e', traces({ stored: stored({ type: 'player.penalized' }) })),
    ).toMatch(/not a game result/);
    expect(readRefusal(grant, 'period.closed:x', traces({ stored: stored() }))).toMatch(/reserved/);
    expect(readRefusal(grant, 'e', traces({ rejection: { ...rejection, ladder: null } }))).toMatch(
      /no ladder/,
    );
    expect(readRefusal(grant, 'e', traces({ rejection }))).toBeNull();
  });
});
