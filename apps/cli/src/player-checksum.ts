import { createHash } from 'node:crypto';
import { byCodeUnit, type PeriodCounts, type PlayerState, type SkillState } from '@ranking/rating';

const counts = (c: PeriodCounts) => c.map(({ key, count }) => [key, count]);

/**
 * One player as canonical text: every PlayerState field in a fixed order (the mapped type
 * makes a new field a compile error here), period counts as [key, count] pairs, so the
 * rendering does not depend on how an object was built or how jsonb ordered its keys.
 */
export function canonicalPlayer(p: PlayerState): string {
  const fields: { [K in keyof PlayerState]-?: unknown } = {
    id: p.id,
    rating: p.rating,
    games: p.games,
    wins: p.wins,
    losses: p.losses,
    draws: p.draws,
    ratedGames: p.ratedGames,
    firstRatedAt: p.firstRatedAt,
    weekGames: counts(p.weekGames),
    monthGames: counts(p.monthGames),
    disconnects: p.disconnects,
    cleanStreak: p.cleanStreak,
    disconnectPenalties: p.disconnectPenalties,
    level: p.level,
    territory: p.territory,
    captures: p.captures,
    dayCaptures: counts(p.dayCaptures),
  };
  return JSON.stringify(fields);
}

/** A skill estimate as canonical text (null: none counted yet). */
const canonicalSkill = (s: SkillState | undefined): string =>
  s === undefined ? 'null' : JSON.stringify([s.mu, s.sigma, s.lastPlayedAt]);

/**
 * sha256 (hex) over every player's canonical line, players in code-unit id order; with their
 * skill estimates when given (the rating service keeps them, so a rebuild checks them too).
 */
export function playersChecksum(
  players: Iterable<PlayerState>,
  skills?: ReadonlyMap<string, SkillState>,
): string {
  const hash = createHash('sha256');
  for (const p of [...players].sort((a, b) => byCodeUnit(a.id, b.id))) {
    const skill = skills === undefined ? '' : `\t${canonicalSkill(skills.get(p.id))}`;
    hash.update(`${canonicalPlayer(p)}${skill}\n`);
  }
  return hash.digest('hex');
}

/** Players with their skill estimates, as a checksum reads them. */
export interface PlayersWithSkills {
  readonly players: Iterable<PlayerState>;
  readonly skills: ReadonlyMap<string, SkillState>;
}

/**
 * The ids of the players whose line in `playersChecksum` differs between two sets (a player in
 * one set only differs), in code-unit order: who a checksum mismatch is about.
 */
export function differingPlayers(a: PlayersWithSkills, b: PlayersWithSkills): string[] {
  const lines = (side: PlayersWithSkills) =>
    new Map(
      [...side.players].map((p) => [
        p.id,
        `${canonicalPlayer(p)}\t${canonicalSkill(side.skills.get(p.id))}`,
      ]),
    );
  const left = lines(a);
  const right = lines(b);
  const ids = new Set([...left.keys(), ...right.keys()]);
  return [...ids].filter((id) => left.get(id) !== right.get(id)).sort(byCodeUnit);
}
