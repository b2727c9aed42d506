import { resultOnly } from '../effect.js';
import type { RuleSet } from '../rule-set.js';
import { missingResult, twoPlayerResults } from '../two-player-results.js';

/** A casual room: W/L/D only, never ranked, penalties ignored. */
export const recordOnly: RuleSet = {
  name: 'record-only',
  reportFields: ['result'],
  playerCounts: [2],
  closes: [],
  penalties: null,
  countsDisconnects: false,
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
