import { classifyFailure } from './transient-error.js';

describe('classifyFailure', () => {
  it('a write that reached a standby (25006, a switchover under way) is transient', () => {
    const error = Object.assign(new Error('cannot execute INSERT in a read-only transaction'), {
      code: '25006',
    });
    expect(classifyFailure(error)).toBe('transient');
    expect(classifyFailure({ driverError: { code: '25006' } })).toBe('transient');
  });

  it('the connection going away, or the server shutting down, is transient', () => {
    expect(classifyFailure(new Error('Connection terminated unexpectedly'))).toBe('transient');
    expect(classifyFailure({ code: '57P01' })).toBe('transient');
    expect(classifyFailure({ code: 'ECONNRESET' })).toBe('transient');
  });

  it('what the input causes is deterministic: other class 25 states, a constraint, a value', () => {
    expect(classifyFailure({ code: '25P02' })).toBe('deterministic');
    expect(classifyFailure({ code: '23505' })).toBe('deterministic');
    expect(classifyFailure({ code: '22P02' })).toBe('deterministic');
  });
});
