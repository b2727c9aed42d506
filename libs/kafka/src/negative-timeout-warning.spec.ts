import {
  isNegativeTimeoutWarning,
  quietNegativeTimeoutWarning,
} from './negative-timeout-warning.js';

describe('the negative-timeout warning', () => {
  it('Given the warning by type, options or Error, When checked, Then it is the one dropped', () => {
    expect(isNegativeTimeoutWarning('-5 is a negative number.', ['TimeoutNegativeWarning'])).toBe(
      true,
    );
    expect(isNegativeTimeoutWarning('x', [{ type: 'TimeoutNegativeWarning' }])).toBe(true);
    const error = Object.assign(new Error('x'), { name: 'TimeoutNegativeWarning' });
    expect(isNegativeTimeoutWarning(error, [])).toBe(true);
  });

  it('Given any other warning, When checked, Then it is kept', () => {
    expect(isNegativeTimeoutWarning('big', ['TimeoutOverflowWarning'])).toBe(false);
    expect(isNegativeTimeoutWarning('old', ['DeprecationWarning', 'DEP0005'])).toBe(false);
    expect(isNegativeTimeoutWarning(new Error('plain'), [])).toBe(false);
  });

  it('Given the process quieted it, When warnings are emitted, Then only that one is dropped', () => {
    const emitted: unknown[][] = [];
    const original = Object.getOwnPropertyDescriptor(process, 'emitWarning')!;
    Object.defineProperty(process, 'emitWarning', {
      ...original,
      value: (...args: unknown[]) => {
        emitted.push(args);
      },
    });
    try {
      quietNegativeTimeoutWarning();
      quietNegativeTimeoutWarning(); // a second call wraps nothing again
      process.emitWarning('-5 is a negative number.', 'TimeoutNegativeWarning');
      process.emitWarning('still here', 'OtherWarning');
      expect(emitted).toEqual([['still here', 'OtherWarning']]);
    } finally {
      Object.defineProperty(process, 'emitWarning', original);
    }
  });
});
