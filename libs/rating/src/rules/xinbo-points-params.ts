import { declareParams, type ParamSchema, wholeParam } from '../rule-params.js';

/** A bracket of official levels (weakest to strongest, e.g. 14 to 10) and what a game is worth. */
export interface LevelBracket {
  readonly weakest: number;
  readonly strongest: number;
  readonly win: number;
  readonly loss: number;
}

/** xinbo-points' numbers (RULES.md "Rule-set parameters"). */
export interface XinboPointsParams {
  /** A territory game of fewer moves is void (too-short). */
  readonly minMoves: number;
  /** An adjusted gap at or above it makes a game between two 9级-or-stronger players result-only. */
  readonly gapLimit: number;
  /** Valid captures a player may earn per local day. */
  readonly dailyCaptureCap: number;
  /** Valid captures per official level in the capture stage. */
  readonly capturesPerLevel: number;
  /** Territory-stage brackets, weakest first, covering levels 14 to 1. */
  readonly brackets: readonly LevelBracket[];
}

const bracketsSchema = (
  defaults: readonly LevelBracket[],
): ParamSchema<readonly LevelBracket[]> => ({
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['weakest', 'strongest', 'win', 'loss'],
    properties: {
      weakest: { type: 'integer' },
      strongest: { type: 'integer' },
      win: { type: 'number' },
      loss: { type: 'number' },
    },
  },
  levelSpans: { weakest: 14, strongest: 1 },
  default: defaults,
});

export const XINBO_POINTS_PARAMS = declareParams<XinboPointsParams>({
  minMoves: wholeParam(10, 0),
  gapLimit: wholeParam(300, 0),
  dailyCaptureCap: wholeParam(10, 0),
  capturesPerLevel: wholeParam(10, 1),
  brackets: bracketsSchema([
    { weakest: 14, strongest: 10, win: 12, loss: 0 },
    { weakest: 9, strongest: 5, win: 20, loss: -10 },
    { weakest: 4, strongest: 2, win: 15, loss: -10 },
    { weakest: 1, strongest: 1, win: 12, loss: -12 },
  ]),
});
