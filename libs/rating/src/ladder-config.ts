import type { RuleSetName } from './rule-set-name.js';

/** One rating pool: a game plus a rule set, with its own players and its own local clock. */
export interface LadderConfig {
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
}

/** The built-in ladders of RULES.md. */
export const BUILT_IN_LADDERS: readonly LadderConfig[] = [
  {
    id: 'qq-gomoku',
    ruleSet: 'qq-points',
    startRating: 0,
    precision: 1,
    timezone: 'Asia/Shanghai',
    rankedAfter: 1,
  },
  {
    id: 'igame-gomoku',
    ruleSet: 'igame-elo',
    startRating: 1600,
    precision: 1,
    timezone: 'Asia/Taipei',
    rankedAfter: 20,
  },
  {
    id: 'igame-gomoku-casual',
    ruleSet: 'record-only',
    startRating: 0,
    precision: 1,
    timezone: 'Asia/Taipei',
    rankedAfter: null,
  },
  {
    id: 'qq-xiangqi',
    ruleSet: 'qq-elo',
    startRating: 1300,
    precision: 1,
    timezone: 'Asia/Shanghai',
    rankedAfter: 1,
  },
  {
    id: 'xinbo-go',
    ruleSet: 'xinbo-points',
    startRating: 0,
    precision: 1,
    timezone: 'Asia/Shanghai',
    rankedAfter: 1,
  },
  {
    id: 'qq-blokus',
    ruleSet: 'squares',
    startRating: 0,
    precision: 1,
    timezone: 'Asia/Shanghai',
    rankedAfter: 1,
  },
  {
    id: 'qq-fifty-k',
    ruleSet: 'card-points',
    startRating: 0,
    precision: 0.5,
    timezone: 'Asia/Shanghai',
    rankedAfter: 1,
  },
];
