import type { SkillGame } from './skill-book.js';

/**
 * A game's saved estimates as the rating service stores them beside its record
 * (`ladder_games.skill`): the finish (epoch ms), then four numbers per player (mu and sigma
 * before, after as it counts), in the record's player order. Numbers are written as
 * JavaScript writes them, which reads back to the same double.
 */
export const encodeSkillGame = (game: SkillGame): string =>
  `${game.finishedAt}|${game.skills.join(',')}`;

/** The saved estimates of a game whose record lists `players` (the record's order). */
export function decodeSkillGame(text: string, players: readonly string[]): SkillGame {
  const bar = text.indexOf('|');
  const skills = text
    .slice(bar + 1)
    .split(',')
    .map(Number);
  if (bar < 0 || skills.length !== 4 * players.length || skills.some((n) => !Number.isFinite(n)))
    throw new Error(`stored skill record "${text}" does not fit ${players.length} players`);
  return { finishedAt: Number(text.slice(0, bar)), players: [...players], skills };
}
