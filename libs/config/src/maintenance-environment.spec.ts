import { ConfigError, loadEnvironment } from './environment.js';

describe('environment: maintenance service', () => {
  it('defaults to port 3001, a 2-minute grace and a 1-second tick', () => {
    expect(loadEnvironment({})).toMatchObject({
      MAINTENANCE_HTTP_PORT: 3001,
      MAINTENANCE_GRACE_SECONDS: 120,
      MAINTENANCE_TICK_MS: 1000,
    });
  });

  it('reads given values', () => {
    expect(
      loadEnvironment({
        MAINTENANCE_HTTP_PORT: '4001',
        MAINTENANCE_GRACE_SECONDS: '0',
        MAINTENANCE_TICK_MS: '50',
      }),
    ).toMatchObject({
      MAINTENANCE_HTTP_PORT: 4001,
      MAINTENANCE_GRACE_SECONDS: 0,
      MAINTENANCE_TICK_MS: 50,
    });
  });

  it.each([
    [
      'MAINTENANCE_HTTP_PORT',
      '-1',
      'MAINTENANCE_HTTP_PORT="-1": must be a port number (1-65535, or 0 for any free port)',
    ],
    [
      'MAINTENANCE_GRACE_SECONDS',
      '-5',
      'MAINTENANCE_GRACE_SECONDS="-5": must be a whole number of seconds (0-86400)',
    ],
    [
      'MAINTENANCE_TICK_MS',
      'fast',
      'MAINTENANCE_TICK_MS="fast": must be a whole number of milliseconds (10-60000)',
    ],
  ])('stops on a bad %s with one line naming it', (name, value, message) => {
    expect(() => loadEnvironment({ [name]: value })).toThrow(new ConfigError(message));
  });
});
