import { resultOnly } from '../effect.js';
import { declareParams } from '../rule-params.js';
import type { RuleSet } from '../rule-set.js';
import { missingResult, twoPlayerResults } from '../two-player-results.js';
import { headToHead } from '../skill-match.js';

/** A casual room: W/L/D only, never ranked, penalties ignored. */
export const recordOnly: RuleSet = {
  name: 'record-only',
  // Nothing to set: no game moves a number.
  params: declareParams<Record<never, never>>({}),
  reportFields: ['result'],
  playerCounts: [2],
  skillMatch: headToHead,
  closes: [],
  penalties: null,
  disconnects: () => null,
  keepsRating: false,
  tracksDailyCaptures: false,
  requiredFields: (players) => missingResult(players),
  score({ players }) {
    const results = twoPlayerResults(players);
    if (!results.ok) return { kind: 'rejected', rejection: results.rejection };
    return {
      kind: 'scored',
      effects: results.results.map((r) => resultOnly(r, { kind: 'record-only' })),
    };
  },
  outputFields: () => ({}),
};
