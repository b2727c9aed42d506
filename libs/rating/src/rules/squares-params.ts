import { declareParams, numberParam } from '../rule-params.js';

/** squares' numbers (RULES.md "Rule-set parameters"). */
export interface SquaresParams {
  /** What the winner of a two-player game gains. */
  readonly winPoints: number;
  /** What a winning team shares (half each)... */
  readonly teamPoints: number;
  /** ...or shares when one of its members has 0 remaining. */
  readonly teamPerfectPoints: number;
  /** Added for `perfect: true` (完美一击), whatever the result. */
  readonly perfectBonus: number;
}

export const SQUARES_PARAMS = declareParams<SquaresParams>({
  winPoints: numberParam(20),
  teamPoints: numberParam(20),
  teamPerfectPoints: numberParam(30),
  perfectBonus: numberParam(1),
});
