import type { ConsumerStatus } from './checkpointed-consumer.js';
import { combinedStatus } from './combined-status.js';

const well = (over: Partial<ConsumerStatus> = {}): ConsumerStatus => ({
  lastContact: 1_000,
  retrying: null,
  quarantined: 0,
  lag: { at: 900, partitions: new Map([[0, 2n]]), total: 2n },
  crashed: null,
  ...over,
});

describe('combinedStatus (one status for a service of several consumers)', () => {
  it('Given no consumer, Then it is well as of now, with nothing behind', () => {
    expect(combinedStatus(new Map(), 5_000)).toMatchObject({
      lastContact: 5_000,
      retrying: null,
      lag: { at: 5_000, total: 0n },
      crashed: null,
    });
  });

  it('Given several, Then the stalest contact, the sum of lags as old as the oldest, the sum of quarantines', () => {
    const status = combinedStatus(
      new Map([
        ['a', well({ quarantined: 1 })],
        [
          'b',
          well({
            lastContact: 400,
            quarantined: 2,
            lag: { at: 700, partitions: new Map(), total: 5n },
          }),
        ],
      ]),
      5_000,
    );
    expect(status).toMatchObject({ lastContact: 400, quarantined: 3, lag: { at: 700, total: 7n } });
  });

  it('Given one not measured yet, Then the lag is not known', () => {
    expect(
      combinedStatus(
        new Map([
          ['a', well()],
          ['b', well({ lag: null })],
        ]),
        1,
      ).lag,
    ).toBeNull();
  });

  it('Given retries, Then a missing grant is named first, else the oldest, with its consumer', () => {
    const transient = { since: 10, attempts: 3, error: 'broker away', kind: 'transient' as const };
    const grant = { since: 50, attempts: 1, error: 'no WRITE', kind: 'misconfigured' as const };
    expect(
      combinedStatus(
        new Map([
          ['a', well({ retrying: transient })],
          ['b', well({ retrying: grant })],
        ]),
        1,
      ).retrying,
    ).toEqual({ ...grant, error: 'b: no WRITE' });
    expect(
      combinedStatus(
        new Map([
          ['a', well({ retrying: transient })],
          ['b', well()],
        ]),
        1,
      ).retrying,
    ).toEqual({ ...transient, error: 'a: broker away' });
  });

  it('Given a crash, Then it is said with its consumer', () => {
    expect(
      combinedStatus(
        new Map([
          ['a', well()],
          ['b', well({ crashed: 'gone' })],
        ]),
        1,
      ).crashed,
    ).toBe('b: gone');
  });
});
