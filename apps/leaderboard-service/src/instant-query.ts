import { BadRequestException } from '@nestjs/common';
import { rfc3339Millis } from '@ranking/contracts';
import { ValidateBy, type ValidationArguments } from 'class-validator';

/**
 * `at` of a query: an RFC 3339 instant with its offset. Its form is checked with the query (a
 * pure check, remembered per query string by the validation pipe); whether it lies in the
 * future depends on the clock, so `instantOf` checks that per request.
 */
export function IsInstant(): PropertyDecorator {
  return ValidateBy({
    name: 'isInstant',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && !Number.isNaN(rfc3339Millis(value)),
      defaultMessage: (args?: ValidationArguments) => {
        const value = String(args?.value);
        // A '+' left unencoded in a query string arrives as a space.
        const plus = /\d \d{2}:\d{2}$/.test(value)
          ? " (a '+' in a query string must be sent as %2B)"
          : '';
        return `${args?.property ?? 'at'} must be an RFC 3339 instant with an offset, e.g. 2026-11-29T21:00:00Z or 2026-11-30T05:00:00%2B08:00${plus}`;
      },
    },
  });
}

/** The instant of a validated `at`, or a 400 when it is in the future (no board exists yet). */
export function instantOf(text: string, now = Date.now()): Date {
  const at = rfc3339Millis(text);
  if (at > now)
    throw new BadRequestException(
      `at ${text} is in the future (now is ${new Date(now).toISOString()}): boards exist only for instants that have passed`,
    );
  return new Date(at);
}
