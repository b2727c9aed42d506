import type { Why } from './effect.js';
import type { LadderFold } from './ladder-fold.js';
import type { PlayerChange } from './player-change.js';
import type { PlayerState } from './player-state.js';
import { refoldChanges } from './annulment.js';
import { SkillBook, type SkillState } from './skill-book.js';
import type { Skill } from './skill-model.js';

/** What a re-folded ladder changes against the state a store holds for it. */
export interface RefoldDiff {
  /** One per player whose state changed (new players too), each with `why`. */
  readonly changes: readonly PlayerChange[];
  /** The players to write: those whose state or skill estimate changed. */
  readonly players: readonly PlayerState[];
  /** Estimates that moved: before (the prior for a new one) and after. */
  readonly skill: ReadonlyMap<string, { readonly before: Skill; readonly after: Skill }>;
  /** Players the store keeps an estimate of that the re-fold left without one (no counted game). */
  readonly staleSkills: readonly string[];
}

/**
 * The difference between the players (and estimates) a store holds and a re-fold of the
 * ladder: what an annulment swapped in, or a rebuild, writes and reports.
 */
export function refoldDiff(
  stored: ReadonlyMap<string, PlayerState>,
  storedSkills: ReadonlyMap<string, SkillState>,
  refolded: LadderFold,
  why: Why,
): RefoldDiff {
  const changes = refoldChanges(stored, refolded.players, why);
  const skills = refolded.skill?.players ?? new Map<string, SkillState>();
  // How the estimates moved: the skill book's own comparison of two books of one ladder.
  const before = SkillBook.restore({
    players: [...storedSkills].map(([id, s]) => ({ id, ...s })),
    games: [],
  });
  const moves = refolded.skill ? before.changesTo(refolded.skill) : [];
  const skill = new Map(moves.map((m) => [m.player, { before: m.before, after: m.after }]));
  const staleSkills = [...storedSkills.keys()].filter((id) => !skills.has(id));
  const ids = new Set(changes.map((c) => c.player));
  for (const id of skill.keys()) if (refolded.players.has(id)) ids.add(id);
  // A player whose last game's instant alone moved is written too (it has no history row).
  for (const [id, now] of skills)
    if (storedSkills.get(id)?.lastPlayedAt !== now.lastPlayedAt && refolded.players.has(id))
      ids.add(id);
  const players = [...ids].map((id) => refolded.players.get(id)!);
  return { changes, players, skill, staleSkills };
}
