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

/**
 * The intake's own code (CONTRACT.md "Transport"): a type, or an id, that a game server may not
 * send. Never produced by the fold: the ladder log is written by the system's principals only.
 */
export const NOT_PERMITTED = 'not-permitted' as const;

/** Why the intake turned a game server's message away: the fold's codes and its own. */
export type IntakeRejectionCode = RejectionCode | typeof NOT_PERMITTED;

export interface IntakeRejection {
  code: IntakeRejectionCode;
  detail: string;
}

export const VOID_REASONS = ['same-ip', 'too-short'] as const;
export type VoidReason = (typeof VOID_REASONS)[number];

/** A rejection with a human-readable detail that names the offending field. */
export interface Rejection {
  code: RejectionCode;
  detail: string;
}

// Control characters (C0, DEL, C1) and, with the u flag, only unpaired surrogates: a pair is
// one code point outside the class. The same classes as the schema's identifier pattern.
const UNSAFE_IN_DETAIL = /[\u0000-\u001f\u007f-\u009f\ud800-\udfff]/gu;

const escaped = (unit: string): string => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * A detail written as `\uXXXX` where it would hold a control character or an unpaired
 * surrogate: details are stored in PostgreSQL text (no NUL), sent as a Kafka header (UTF-8, no
 * lone surrogate) and logged, and may quote the input (JSON.parse's messages do).
 */
export const safeDetail = (detail: string): string => detail.replace(UNSAFE_IN_DETAIL, escaped);

export const reject = (code: RejectionCode, detail: string): Rejection => ({
  code,
  detail: safeDetail(detail),
});
