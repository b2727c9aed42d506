import { BadRequestException } from '@nestjs/common';
import { isPlayerId, PLAYER_ID_RULE } from '@ranking/contracts';
import { fitsRuleSet, type LadderConfig, shapesText, shapeText } from '@ranking/rating';

/** A proposed game: its sides, each a list of player ids. */
export interface ProposedGame {
  readonly teams: readonly (readonly string[])[];
}

/** Sides and players per side any rule set takes (the rule set then narrows them). */
const MAX_SIDES = 4;
const MAX_SIDE = 4;

const bad = (message: string) => new BadRequestException(message);

/**
 * The body of POST /ladders/:ladder/predict checked against the contract's ids and the
 * ladder's rule set: `{"teams": [["a"], ["b"]]}`. A 400 names the path of what is wrong
 * (`teams[1][0]`) and why.
 */
export function proposedGame(body: unknown, ladder: LadderConfig): ProposedGame {
  const example = 'e.g. {"teams": [["alice"], ["bob"]]}';
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw bad(`the body must be a JSON object with the teams of the game, ${example}`);
  const extra = Object.keys(body).find((key) => key !== 'teams');
  if (extra !== undefined)
    throw bad(`${JSON.stringify(extra)} is not a field of a proposed game (only teams)`);
  const { teams } = body as { teams?: unknown };
  if (teams === undefined) throw bad(`teams is required, ${example}`);
  if (!Array.isArray(teams) || teams.length < 2 || teams.length > MAX_SIDES)
    throw bad(`teams must be a list of 2 to ${MAX_SIDES} sides, ${example}`);
  const seen = new Map<string, string>();
  teams.forEach((side: unknown, s) => {
    if (!Array.isArray(side) || side.length < 1 || side.length > MAX_SIDE)
      throw bad(`teams[${s}] must be a list of 1 to ${MAX_SIDE} player ids`);
    side.forEach((player: unknown, p) => {
      const path = `teams[${s}][${p}]`;
      if (!isPlayerId(player)) throw bad(`${path} must be a player id: ${PLAYER_ID_RULE}`);
      const first = seen.get(player);
      if (first !== undefined)
        throw bad(`${path}: player ${JSON.stringify(player)} is already in the game at ${first}`);
      seen.set(player, path);
    });
  });
  const sides = teams as string[][];
  const shape = sides.map((side) => side.length);
  if (!fitsRuleSet(ladder.ruleSet, shape))
    throw bad(
      `teams: ladder "${ladder.id}" (${ladder.ruleSet}) plays ${shapesText(ladder.ruleSet)}, not ${shapeText(shape)}`,
    );
  return { teams: sides };
}
