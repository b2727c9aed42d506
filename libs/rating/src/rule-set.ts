import type {
  GameContext,
  PeriodName,
  PlayerReport,
  Rejection,
  VoidReason,
} from '@ranking/contracts';
import type { DisconnectRule } from './disconnect-policy.js';
import type { PlayerEffect, Why } from './effect.js';
import type { LadderConfig } from './ladder-config.js';
import type { PeriodWindow } from './period-clock.js';
import type { PlayerSnapshot, PlayerState } from './player-state.js';
import type { SkillMatch } from './skill-match.js';
import type { ParamsDeclaration } from './rule-params.js';
import type { RuleSetName } from './rule-set-name.js';

/** The context of a game with the contract's defaults filled in. */
export interface GameSetting {
  readonly kind: 'territory' | 'capture';
  readonly handicap: number;
  readonly teacher: boolean;
  readonly tournament: boolean;
  readonly captureTarget: 3 | 5 | null;
}

const DEFAULT_SETTING: GameSetting = Object.freeze({
  kind: 'territory',
  handicap: 0,
  teacher: false,
  tournament: false,
  captureTarget: null,
});

export const settingOf = (context: GameContext | undefined): GameSetting =>
  context === undefined
    ? DEFAULT_SETTING
    : {
        kind: context.kind ?? 'territory',
        handicap: context.handicap ?? 0,
        teacher: context.teacher ?? false,
        tournament: context.tournament ?? false,
        captureTarget: context.captureTarget ?? null,
      };

/**
 * What a rule set computes a game from: the ladder (its resolved params `P`), the reports, and
 * each player's state before it.
 */
export interface GameInput<P extends object = object> {
  readonly ladder: LadderConfig<P>;
  readonly moves: number;
  readonly setting: GameSetting;
  readonly players: readonly PlayerReport[];
  readonly before: readonly PlayerSnapshot[];
}

export type GameScore =
  | { readonly kind: 'rejected'; readonly rejection: Rejection }
  | { readonly kind: 'void'; readonly reason: VoidReason }
  /** Stored, but no counter moves (xinbo tournament games). */
  | { readonly kind: 'recorded' }
  /** One effect per player, in the event's order. */
  | { readonly kind: 'scored'; readonly effects: readonly PlayerEffect[] };

/** What a period close does to one player: the new state and, when the rating moved, why. */
export interface PlayerClose {
  readonly player: PlayerState;
  readonly why: Why | null;
}

/**
 * One rule set: everything that differs between games. The fold around it handles ids,
 * records, corrections, disconnects and quotas' bookkeeping the same way for all.
 *
 * Its numbers are the ladder's `params` (declared in `params`, resolved once per ladder). The
 * functions below take the ladder; a rule set's module types them with its own params, which
 * these method signatures accept (methods compare their parameters bivariantly): the registry
 * gives a ladder the params of its own rule set.
 */
export interface RuleSet {
  readonly name: RuleSetName;
  /** The parameters a ladder may set, with their defaults (RULES.md "Rule-set parameters"). */
  readonly params: ParamsDeclaration<object>;
  /** The report fields `score` reads (besides `id`): what a game record keeps for corrections. */
  readonly reportFields: readonly (keyof PlayerReport)[];
  /** Player counts an event may have. */
  readonly playerCounts: readonly number[];
  /** Periods whose close this rule set acts on (the daily close always exists for the leaderboard). */
  readonly closes: readonly PeriodName[];
  /** Whether `player.penalized` applies (null: ignored), and the floor it stops at on the ladder (null = no floor). */
  readonly penalties: { floor(ladder: LadderConfig): number | null } | null;
  /** i.Game's disconnect rule with the ladder's numbers, when its counter runs here; else null. */
  disconnects(ladder: LadderConfig): DisconnectRule | null;
  /** Whether the ladder keeps a rating (output `rating`). */
  readonly keepsRating: boolean;
  /** Whether games need the day's capture tally (xinbo). */
  readonly tracksDailyCaptures: boolean;
  /** Fields this rule set needs beyond the schema; returns the invalid-event detail or null. */
  requiredFields(players: readonly PlayerReport[], setting: GameSetting): string | null;
  /** Computes the game: inconsistent results, void, or each player's effect. */
  score(input: GameInput): GameScore;
  /** Acts on one player at a close this rule set listed in `closes`. */
  closePeriod?(window: PeriodWindow, player: PlayerState, ladder: LadderConfig): PlayerClose | null;
  /** Rule-set-specific output fields (title, level, captures, disconnects). */
  outputFields(player: PlayerState): Record<string, string | number>;
  /**
   * A scored game as the skill estimate sees it (sides and places), from its reports (teams,
   * seats) and its effects (results and places as scored, derived ones included); null when it
   * cannot be placed (effects without results).
   */
  skillMatch(players: readonly PlayerReport[], effects: readonly PlayerEffect[]): SkillMatch | null;
}
