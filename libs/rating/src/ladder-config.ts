import type { RuleSetName } from './rule-set-name.js';
import { RULE_SETS } from './rule-sets.js';

/**
 * One rating pool: a game plus a rule set, with its own players and its own local clock. `P` is
 * the type of its rule set's parameters (a rule set's own functions name it).
 */
export interface LadderConfig<P extends object = object> {
  id: string;
  ruleSet: RuleSetName;
  /** Rating (or score) a new player starts with; 0 for ladders that keep no rating. */
  startRating: number;
  /** Smallest rating step: 1 for integer ladders, 0.5 for half points. */
  precision: number;
  /** IANA zone whose 06:00 closes the ladder's days. */
  timezone: string;
  /** Rated games needed to appear on the leaderboard; null = never ranked. */
  rankedAfter: number | null;
  /**
   * The rule set's parameters (RULES.md "Rule-set parameters"): its defaults with the ladder's
   * `params` over them, validated and resolved once when the ladders are loaded.
   */
  params: P;
}

const builtIn = (ladder: Omit<LadderConfig, 'params'>): LadderConfig => ({
  ...ladder,
  params: RULE_SETS[ladder.ruleSet].params.defaults,
});

/** The built-in ladders of RULES.md. */
export const BUILT_IN_LADDERS: readonly LadderConfig[] = [
  builtIn({
    id: 'qq-gomoku',
    ruleSet: 'qq-points',
    startRating: 0,
    precision: 1,
    timezone: 'Asia/Shanghai',
    rankedAfter: 1,
  }),
  builtIn({
    id: 'igame-gomoku',
    ruleSet: 'igame-elo',
    startRating: 1600,
    precision: 1,
    timezone: 'Asia/Taipei',
    rankedAfter: 20,
  }),
  builtIn({
    id: 'igame-gomoku-casual',
    ruleSet: 'record-only',
    startRating: 0,
    precision: 1,
    timezone: 'Asia/Taipei',
    rankedAfter: null,
  }),
  builtIn({
    id: 'qq-xiangqi',
    ruleSet: 'qq-elo',
    startRating: 1300,
    precision: 1,
    timezone: 'Asia/Shanghai',
    rankedAfter: 1,
  }),
  builtIn({
    id: 'xinbo-go',
    ruleSet: 'xinbo-points',
    startRating: 0,
    precision: 1,
    timezone: 'Asia/Shanghai',
    rankedAfter: 1,
  }),
  builtIn({
    id: 'qq-blokus',
    ruleSet: 'squares',
    startRating: 0,
    precision: 1,
    timezone: 'Asia/Shanghai',
    rankedAfter: 1,
  }),
  builtIn({
    id: 'qq-fifty-k',
    ruleSet: 'card-points',
    startRating: 0,
    precision: 0.5,
    timezone: 'Asia/Shanghai',
    rankedAfter: 1,
  }),
];
