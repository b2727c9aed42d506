// Why an event was rejected (CONTRACT.md). Void is not a rejection: see VoidReason.
export const REJECTION_CODES = [
  'invalid-json',
  'invalid-event',
  'unknown-ladder',
  'wrong-player-count',
  'duplicate-player',
  'inconsistent-result',
  'unknown-game',
] as const;

export type RejectionCode = (typeof REJECTION_CODES)[number];

export const VOID_REASONS = ['same-ip', 'too-short'] as const;
export type VoidReason = (typeof VOID_REASONS)[number];

/** A rejection with a human-readable detail that names the offending field. */
export interface Rejection {
  code: RejectionCode;
  detail: string;
}

export const reject = (code: RejectionCode, detail: string): Rejection => ({ code, detail });
