import { declareParams, numberParam, positiveParam, wholeParam } from '../rule-params.js';

/** qq-points' numbers (RULES.md "Rule-set parameters"). */
export interface QqPointsParams {
  /** A gap `d` at or above it makes the game result-only. */
  readonly resultOnlyGap: number;
  /** A gap at or above it (and below resultOnlyGap) moves ±flatPoints. */
  readonly flatGap: number;
  readonly flatPoints: number;
  /** A near game moves basePoints ∓ floor(d/gapDivisor); a near draw ±floor(d/gapDivisor). */
  readonly basePoints: number;
  readonly gapDivisor: number;
}

export const QQ_POINTS_PARAMS = declareParams<QqPointsParams>({
  resultOnlyGap: wholeParam(200),
  flatGap: wholeParam(100),
  flatPoints: numberParam(1),
  basePoints: numberParam(10),
  gapDivisor: positiveParam(10),
});
