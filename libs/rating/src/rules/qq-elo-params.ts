import { type KTable, kTableSchema } from '../k-table.js';
import { declareParams, numberParam, positiveParam, wholeParam } from '../rule-params.js';

/** qq-elo's numbers (RULES.md "Rule-set parameters"). */
export interface QqEloParams {
  /** K from the player's own rating. */
  readonly k: KTable;
  /** Y in Dr = (R_opp − R_self) + Y: −offset for the first mover, +offset for the other. */
  readonly firstMoveOffset: number;
  /** E = 1/(10^(Dr/eloScale) + 1). */
  readonly eloScale: number;
  /** A game of fewer moves is void (too-short). */
  readonly minMoves: number;
}

export const QQ_ELO_PARAMS = declareParams<QqEloParams>({
  k: kTableSchema([
    { below: 1000, k: 120 },
    { below: 1400, k: 60 },
    { below: 1800, k: 30 },
    { below: 2000, k: 25 },
    { below: 2200, k: 20 },
    { below: 2400, k: 15 },
    { k: 10 },
  ]),
  firstMoveOffset: numberParam(100),
  eloScale: positiveParam(400),
  minMoves: wholeParam(2, 0),
});
