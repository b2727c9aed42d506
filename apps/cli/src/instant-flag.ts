import { instantMillis } from '@ranking/contracts';

/** A flag's RFC 3339 instant (with its offset: a bare local time names no instant), in epoch ms. */
export function instantFlag(flag: string, value: string): number {
  const ms = instantMillis(value);
  if (!/[zZ]|[+-]\d{2}:\d{2}$/.test(value) || Number.isNaN(ms))
    throw new Error(`${flag} ${value}: must be an RFC 3339 instant with an offset`);
  return ms;
}
