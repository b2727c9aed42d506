import type { LadderEvent } from '@ranking/contracts';
import type { GameRecord } from './game-record.js';
import { decodeRecord } from './game-record-codec.js';
import type { LadderConfig } from './ladder-config.js';
import type { LadderSnapshot } from './ladder-fold.js';
import type { PlayerState } from './player-state.js';
import { RULE_SETS } from './rule-sets.js';
import type { SkillGame, SkillState } from './skill-book.js';
import { decodeSkillGame } from './skill-record-codec.js';

/** A game as the rating service stores it: its encoded record and saved estimates (or null). */
export interface StoredGame {
  readonly record: string;
  readonly skill: string | null;
}

/** A stored player's skill estimate, with the player's id. */
export type StoredSkill = SkillState & { readonly id: string };

/** The games a ladder's events correct: a batch reads them first, since their players count too. */
export function correctedGameIds(events: readonly LadderEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'game.corrected' ? [e.gameId] : []));
}

/** The stored games, decoded: their records and saved estimates. */
export function decodeStoredGames(
  ladder: LadderConfig,
  games: ReadonlyMap<string, StoredGame>,
): { readonly records: GameRecord[]; readonly skills: (SkillGame & { readonly id: string })[] } {
  const rules = RULE_SETS[ladder.ruleSet];
  const records: GameRecord[] = [];
  const skills: (SkillGame & { readonly id: string })[] = [];
  for (const [id, stored] of games) {
    const record = decodeRecord(id, stored.record, rules);
    records.push(record);
    if (stored.skill !== null)
      skills.push({
        id,
        ...decodeSkillGame(
          stored.skill,
          record.players.map((p) => p.id),
        ),
      });
  }
  return { records, skills };
}

/** The players a ladder's events read: those they name, and those of the games they correct. */
export function playersRead(
  events: readonly LadderEvent[],
  corrected: readonly GameRecord[],
): string[] {
  const ids = new Set<string>();
  for (const e of events) {
    if (e.type === 'game.finished') for (const p of e.players) ids.add(p.id);
    if (e.type === 'player.penalized') ids.add(e.player);
  }
  for (const r of corrected) for (const p of r.players) ids.add(p.id);
  return [...ids];
}

/**
 * The part of a ladder's state a batch read from its rows, as a snapshot a fold restores
 * (`LadderFold.restore`), which then tracks what it writes back.
 */
export function snapshotOfRows(
  ladder: LadderConfig,
  players: readonly PlayerState[],
  skills: readonly StoredSkill[],
  games: ReturnType<typeof decodeStoredGames>,
): LadderSnapshot {
  return {
    ladder: ladder.id,
    players,
    games: games.records,
    closed: [],
    accepted: 0,
    skill: { players: skills, games: games.skills },
  };
}
