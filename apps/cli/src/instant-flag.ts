import { rfc3339Millis } from '@ranking/contracts';

/**
 * A flag's RFC 3339 instant (with its offset: a bare local time names no instant, and a real
 * calendar day: Date.parse would take 2026-02-30 as 2 March), in epoch ms.
 */
export function instantFlag(flag: string, value: string): number {
  const ms = rfc3339Millis(value);
  if (Number.isNaN(ms))
    throw new Error(`${flag} ${value}: must be an RFC 3339 instant with an offset`);
  return ms;
}
