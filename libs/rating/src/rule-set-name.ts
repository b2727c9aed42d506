export const RULE_SET_NAMES = [
  'qq-points',
  'igame-elo',
  'record-only',
  'qq-elo',
  'xinbo-points',
  'squares',
  'card-points',
] as const;

export type RuleSetName = (typeof RULE_SET_NAMES)[number];
