import type { PlayerReport } from '@ranking/contracts';
import { NO_EFFECT, type PlayerEffect } from './effect.js';
import { fitsRuleSet, MATCH_SHAPES, shapesText } from './match-shapes.js';
import { RULE_SET_NAMES } from './rule-set-name.js';
import { RULE_SETS } from './rule-sets.js';

/**
 * A game of the shape's players, side by side (side s: team `t<s>`, seats s, s + 2, …), the
 * first side winning, with the effects a scored game would carry (results and places).
 */
function gameOf(shape: readonly number[]): { players: PlayerReport[]; effects: PlayerEffect[] } {
  const players: PlayerReport[] = [];
  const effects: PlayerEffect[] = [];
  shape.forEach((size, side) => {
    for (let k = 0; k < size; k++) {
      const result = side === 0 ? 'win' : 'loss';
      players.push({ id: `s${side}p${k}`, result, team: `t${side}`, seat: side + 2 * k });
      effects.push({
        ...NO_EFFECT,
        result,
        why: { kind: 'card-points', card: 0, place: side + 1, doubled: false },
      });
    }
  });
  // Seats by parity put opposite seats together: order the players by seat as tables do.
  const order = players.map((_, i) => i).sort((a, b) => players[a]!.seat! - players[b]!.seat!);
  return { players: order.map((i) => players[i]!), effects: order.map((i) => effects[i]!) };
}

describe('MATCH_SHAPES', () => {
  it.each(RULE_SET_NAMES)(
    '%s: one shape per player count the rule set takes, each the sides its skillMatch makes',
    (name) => {
      const rules = RULE_SETS[name];
      const shapes = MATCH_SHAPES[name];
      expect(shapes.map((s) => s.reduce((a, b) => a + b, 0)).sort()).toEqual(
        [...rules.playerCounts].sort(),
      );
      for (const shape of shapes) {
        const { players, effects } = gameOf(shape);
        const match = rules.skillMatch(players, effects);
        expect(match?.sides.map((side) => side.length)).toEqual(shape);
      }
    },
  );

  it('given sizes, then only the rule set’s shapes fit, in words when they do not', () => {
    expect(fitsRuleSet('qq-elo', [1, 1])).toBe(true);
    expect(fitsRuleSet('qq-elo', [2, 2])).toBe(false);
    expect(fitsRuleSet('squares', [2, 2])).toBe(true);
    expect(fitsRuleSet('squares', [2, 1])).toBe(false);
    expect(fitsRuleSet('card-points', [1, 1, 1])).toBe(true);
    expect(fitsRuleSet('card-points', [1, 1])).toBe(false);
    expect(shapesText('igame-elo')).toBe('2 sides of 1');
    expect(shapesText('squares')).toBe('2 sides of 1 or 2 sides of 2');
    expect(shapesText('card-points')).toBe('3 sides of 1 or 2 sides of 2');
  });
});
