import type { LadderEvent } from '@ranking/contracts';
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
  /** Only these players (the rest is known from an earlier diff: `withLater`). */
  only?: ReadonlySet<string>,
): RefoldDiff {
  const keep = (id: string) => only === undefined || only.has(id);
  const after =
    only === undefined
      ? refolded.players
      : new Map(
          [...only].flatMap((id) => {
            const p = refolded.players.get(id);
            return p === undefined ? [] : [[id, p] as const];
          }),
        );
  const changes = refoldChanges(stored, after, why);
  const skills = refolded.skill?.players ?? new Map<string, SkillState>();
  // How the estimates moved: the skill book's own comparison of two books of one ladder.
  const before = SkillBook.restore({
    players: [...storedSkills].map(([id, s]) => ({ id, ...s })),
    games: [],
  });
  const moves = (refolded.skill ? before.changesTo(refolded.skill) : []).filter((m) =>
    keep(m.player),
  );
  const skill = new Map(moves.map((m) => [m.player, { before: m.before, after: m.after }]));
  const staleSkills = [...storedSkills.keys()].filter((id) => !skills.has(id) && keep(id));
  const ids = new Set(changes.map((c) => c.player));
  for (const id of skill.keys()) if (refolded.players.has(id)) ids.add(id);
  // A player whose last game's instant alone moved is written too (it has no history row).
  for (const [id, now] of skills)
    if (
      keep(id) &&
      storedSkills.get(id)?.lastPlayedAt !== now.lastPlayedAt &&
      refolded.players.has(id)
    )
      ids.add(id);
  const players = [...ids].map((id) => refolded.players.get(id)!);
  return { changes, players, skill, staleSkills };
}

/**
 * An earlier diff brought up to date: `later` is the diff of the players in `touched` (those
 * events since the earlier one named), the rest stays as the earlier diff found it.
 */
export function withLater(
  earlier: RefoldDiff,
  later: RefoldDiff,
  touched: ReadonlySet<string>,
): RefoldDiff {
  const untouched = (id: string) => !touched.has(id);
  return {
    changes: [...earlier.changes.filter((c) => untouched(c.player)), ...later.changes],
    players: [...earlier.players.filter((p) => untouched(p.id)), ...later.players],
    skill: new Map([...[...earlier.skill].filter(([id]) => untouched(id)), ...later.skill]),
    staleSkills: [...earlier.staleSkills.filter(untouched), ...later.staleSkills],
  };
}

/**
 * The players whose stored rows events may have changed: those they name (a correction names
 * its game's players); null when one of them is a close, which may change any player.
 */
export function playersNamed(events: Iterable<LadderEvent>): Set<string> | null {
  const ids = new Set<string>();
  for (const e of events) {
    switch (e.type) {
      case 'game.finished':
        for (const p of e.players) ids.add(p.id);
        break;
      case 'game.corrected':
        // A void correction need not name the game's players: any may have moved.
        if (e.players === undefined) return null;
        for (const p of e.players) ids.add(p.id);
        break;
      case 'player.penalized':
        ids.add(e.player);
        break;
      case 'period.closed':
      case 'player.annulled':
        return null;
      default: {
        const never: never = e;
        throw new Error(`unexpected event ${JSON.stringify(never)}`);
      }
    }
  }
  return ids;
}
