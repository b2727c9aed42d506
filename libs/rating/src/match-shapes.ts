import type { RuleSetName } from './rule-set-name.js';

/** A game's sides by their sizes: [1, 1] is one versus one, [2, 2] two teams of two. */
export type MatchShape = readonly number[];

/**
 * The games a rule set's ladder plays, as the skill estimate sees them (each rule set's
 * `skillMatch`): two-player games one versus one; squares one versus one or two teams of two;
 * card-points a ranking of three or two teams of two (seats by parity). A proposed game must
 * have one of these shapes.
 */
export const MATCH_SHAPES: Readonly<Record<RuleSetName, readonly MatchShape[]>> = {
  'qq-points': [[1, 1]],
  'igame-elo': [[1, 1]],
  'record-only': [[1, 1]],
  'qq-elo': [[1, 1]],
  'xinbo-points': [[1, 1]],
  squares: [
    [1, 1],
    [2, 2],
  ],
  'card-points': [
    [1, 1, 1],
    [2, 2],
  ],
};

/** A shape in words: "2 sides of 1", "2 sides of 2", "sides of 2 and 1". */
export function shapeText(shape: MatchShape): string {
  const size = shape[0];
  if (size !== undefined && shape.every((s) => s === size))
    return `${shape.length} side${shape.length === 1 ? '' : 's'} of ${size}`;
  return `sides of ${shape.join(', ')}`;
}

/** Whether the sides' sizes are one of the rule set's shapes. */
export function fitsRuleSet(ruleSet: RuleSetName, shape: MatchShape): boolean {
  return MATCH_SHAPES[ruleSet].some(
    (allowed) => allowed.length === shape.length && allowed.every((s, i) => s === shape[i]),
  );
}

/** The rule set's shapes in words: "2 sides of 1 or 2 sides of 2". */
export const shapesText = (ruleSet: RuleSetName): string =>
  MATCH_SHAPES[ruleSet].map(shapeText).join(' or ');
