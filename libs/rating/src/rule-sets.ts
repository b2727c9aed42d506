import type { RuleSet } from './rule-set.js';
import type { RuleSetName } from './rule-set-name.js';
import { cardPoints } from './rules/card-points.js';
import { igameElo } from './rules/igame-elo.js';
import { qqElo } from './rules/qq-elo.js';
import { qqPoints } from './rules/qq-points.js';
import { recordOnly } from './rules/record-only.js';
import { squares } from './rules/squares.js';
import { xinboPoints } from './rules/xinbo-points.js';

/** Every rule set by name: a new game is one module and one line here. */
export const RULE_SETS: Readonly<Record<RuleSetName, RuleSet>> = {
  'qq-points': qqPoints,
  'igame-elo': igameElo,
  'record-only': recordOnly,
  'qq-elo': qqElo,
  'xinbo-points': xinboPoints,
  squares,
  'card-points': cardPoints,
};
