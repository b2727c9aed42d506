import type { FactoryProvider, InjectionToken } from '@nestjs/common';

/**
 * A provider that closes the connection behind `token` in Nest's last shutdown phase
 * (`onApplicationShutdown`), after every consumer and relay stopped in the phase before
 * (`beforeApplicationShutdown`), so nothing still at work loses its connection.
 */
export function closedOnShutdown<T>(
  token: InjectionToken,
  close: (connection: T) => Promise<unknown>,
): FactoryProvider {
  return {
    provide: Symbol(`closes ${String(token)}`),
    inject: [token],
    useFactory: (connection: T) => ({
      onApplicationShutdown: async () => {
        await close(connection);
      },
    }),
  };
}
