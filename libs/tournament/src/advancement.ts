import type { StandingRow } from './group-standings.js';

/**
 * What a finished table means for a player: through, on to the play-off group, out, or tied
 * across a cut-off ("play-off needed": the rules cannot say which side of it the player is on).
 * While the group is still playing every fate is pending.
 */
export type Fate = 'qualified' | 'playoff' | 'eliminated' | 'playoff-needed' | 'pending';

/** The places a row may end up on: its position to the end of its tie. */
const spanOf = (row: StandingRow): [number, number] => [
  row.position,
  row.position + row.tiedWith.length,
];

/** The fate of a row of a group table: `through` places go on, the next `toPlayoff` go to the play-off. */
export function fateOf(
  row: StandingRow,
  complete: boolean,
  through: number,
  toPlayoff: number,
): Fate {
  if (!complete) return 'pending';
  const [best, worst] = spanOf(row);
  if (worst <= through) return 'qualified';
  if (best > through + toPlayoff) return 'eliminated';
  if (best > through && worst <= through + toPlayoff) return 'playoff';
  return 'playoff-needed';
}
