import type { DisconnectRule } from '../disconnect-policy.js';
import { type KTable, kTableSchema } from '../k-table.js';
import {
  declareParams,
  numberParam,
  positiveParam,
  type ParamSchema,
  wholeParam,
} from '../rule-params.js';

/** A tier boundary and the factors that rescale the part of a move beyond it. */
export interface RescaleRow {
  readonly boundary: number;
  readonly up: number;
  readonly down: number;
}

/** igame-elo's numbers (RULES.md "Rule-set parameters"). */
export interface IgameEloParams extends DisconnectRule {
  /** K from the player's own rating. */
  readonly k: KTable;
  /** E = 1 / (10^((R_opp − R_self)/eloScale) + 1). */
  readonly eloScale: number;
  /** Tier boundaries, lowest first; a move crossing several uses the one nearest to R. */
  readonly rescale: readonly RescaleRow[];
  /** Rated games a week that escape the weekly penalty. */
  readonly weeklyQuota: number;
  readonly weeklyPenalty: number;
  readonly monthlyPenalty: number;
  /** No penalty takes a rating below it; a rating at or below it is not penalized. */
  readonly floor: number;
}

const rescaleSchema = (defaults: readonly RescaleRow[]): ParamSchema<readonly RescaleRow[]> => ({
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['boundary', 'up', 'down'],
    properties: {
      boundary: { type: 'number' },
      up: { type: 'number', exclusiveMinimum: 0 },
      down: { type: 'number', exclusiveMinimum: 0 },
    },
  },
  increasing: 'boundary',
  default: defaults,
});

export const IGAME_ELO_PARAMS = declareParams<IgameEloParams>({
  k: kTableSchema([{ below: 2100, k: 32 }, { below: 2400, k: 24 }, { k: 16 }]),
  eloScale: positiveParam(400),
  rescale: rescaleSchema([
    { boundary: 2100, up: 0.75, down: 1.33 },
    { boundary: 2400, up: 0.66, down: 1.5 },
  ]),
  weeklyQuota: wholeParam(7, 0),
  weeklyPenalty: numberParam(-30),
  monthlyPenalty: numberParam(-200),
  floor: numberParam(100),
  disconnectLimit: wholeParam(5, 0),
  disconnectPenalty: numberParam(-100),
  cleanStreak: wholeParam(50, 0),
});
