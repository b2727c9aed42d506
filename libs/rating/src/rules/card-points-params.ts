import { declareParams, numberParam } from '../rule-params.js';

/** card-points' numbers (RULES.md "Rule-set parameters"). */
export interface CardPointsParams {
  /** Added to the first player out. */
  readonly firstOutBonus: number;
  /** Taken from each player who pays for being last (a positive number is a loss). */
  readonly lastOutPenalty: number;
}

export const CARD_POINTS_PARAMS = declareParams<CardPointsParams>({
  firstOutBonus: numberParam(20),
  lastOutPenalty: numberParam(20),
});
