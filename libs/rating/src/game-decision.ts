import {
  type GameCorrected,
  type GameFinished,
  type PlayerReport,
  type Rejection,
  type VoidReason,
  reject,
} from '@ranking/contracts';
import { countDisconnect, type DisconnectCounter } from './disconnect-policy.js';
import {
  type EffectCounts,
  NO_EFFECT,
  type PlayerEffect,
  unpackEffect,
  type Why,
} from './effect.js';
import type { GameTime } from './effect-application.js';
import type { GameRecord } from './game-record.js';
import type { LadderConfig } from './ladder-config.js';
import { type PlayerSnapshot, unpackSnapshots } from './player-state.js';
import { type GameScore, type GameSetting, type RuleSet, settingOf } from './rule-set.js';

/** What the record of a decided game keeps besides the event: its setting and the state before. */
export interface DecidedGame {
  readonly setting: GameSetting;
  readonly before: readonly PlayerSnapshot[];
}

/** What a finished game does to the ladder, decided from the event and its players' state. */
export type GameDecision =
  | { readonly status: 'rejected'; readonly rejection: Rejection }
  /** Accepted, moves nothing, listed under `void`; recorded so that a correction finds it. */
  | { readonly status: 'void'; readonly reason: VoidReason; readonly game: DecidedGame }
  /** Accepted and recorded, moves nothing (xinbo tournament games). */
  | { readonly status: 'recorded'; readonly game: DecidedGame }
  | {
      readonly status: 'scored';
      readonly game: DecidedGame;
      /** One effect per player, in the event's order. */
      readonly effects: readonly PlayerEffect[];
      /** Each player's disconnect counter after the game; null where the ladder keeps none. */
      readonly counters: readonly DisconnectCounter[] | null;
      /** Players whose disconnect counter reached the limit in this game, with the penalty's ordinal. */
      readonly disconnectPenalties: readonly { player: string; ordinal: number }[];
    };

/** What a correction does to a recorded game. */
export type CorrectionDecision =
  | { readonly status: 'rejected'; readonly rejection: Rejection }
  /**
   * The game was void on arrival: it stays so, whatever the correction says. Or it is covered
   * by an annulment and the correction does not void it.
   */
  | { readonly status: 'unchanged' }
  | {
      readonly status: 'corrected';
      /** The game's players as now adjudicated, trimmed to the fields the rule set reads. */
      readonly players: readonly PlayerReport[];
      /** Per player, in the record's order: the effect taken back, and the one applied instead. */
      readonly previous: readonly EffectCounts[];
      readonly effects: readonly PlayerEffect[];
      readonly why: Why;
    };

const NO_PENALTIES: readonly { player: string; ordinal: number }[] = Object.freeze([]);

const rejected = (rejection: Rejection) => ({ status: 'rejected', rejection }) as const;

const zeroEffects = (players: readonly unknown[]): readonly PlayerEffect[] =>
  players.map(() => NO_EFFECT);

/** Checks shared by games and corrections: player count, then duplicate ids. */
function checkRoster(rules: RuleSet, players: readonly PlayerReport[]): Rejection | null {
  if (!rules.playerCounts.includes(players.length)) {
    return reject(
      'wrong-player-count',
      `${rules.name} takes ${rules.playerCounts.join(' or ')} players, not ${players.length}`,
    );
  }
  for (let i = 1; i < players.length; i++) {
    for (let j = 0; j < i; j++) {
      if (players[i]!.id === players[j]!.id)
        return reject('duplicate-player', `player ${players[i]!.id} appears twice`);
    }
  }
  return null;
}

/**
 * What a decision reads of a game's players before it, by their place in the event (unknown
 * players read as new ones): the fold answers from its player table, without building states.
 */
export interface PlayersBefore {
  snapshot(slot: number, dayKey: string | null): PlayerSnapshot;
  counter(slot: number): DisconnectCounter;
}

/**
 * Decides a finished game from the event and the players' state before it. Pure: the fold
 * applies the result.
 */
export function decideGame(
  ladder: LadderConfig,
  rules: RuleSet,
  event: GameFinished,
  before: PlayersBefore,
  time: GameTime,
): GameDecision {
  const roster = checkRoster(rules, event.players);
  if (roster) return rejected(roster);
  const setting = settingOf(event.context);
  const missing = rules.requiredFields(event.players, setting);
  if (missing) return rejected(reject('invalid-event', missing));
  const dayKey = rules.tracksDailyCaptures ? time.calendar.dayKey(time.finishedAt) : null;
  const snapshots: PlayerSnapshot[] = [];
  for (let i = 0; i < event.players.length; i++) snapshots.push(before.snapshot(i, dayKey));
  const input = { ladder, moves: event.moves, setting, players: event.players, before: snapshots };
  const score = rules.score(input);
  const game: DecidedGame = { setting, before: snapshots };
  switch (score.kind) {
    case 'rejected':
      return rejected(score.rejection);
    case 'void':
      return { status: 'void', reason: score.reason, game };
    case 'recorded':
      return { status: 'recorded', game };
    case 'scored':
      break;
  }
  const disconnects = rules.disconnects(ladder);
  if (disconnects === null) {
    const effects = score.effects;
    return { status: 'scored', game, effects, counters: null, disconnectPenalties: NO_PENALTIES };
  }
  const disconnectPenalties: { player: string; ordinal: number }[] = [];
  const counters: DisconnectCounter[] = [];
  for (let i = 0; i < event.players.length; i++) {
    const report = event.players[i]!;
    const step = countDisconnect(before.counter(i), report.disconnected === true, disconnects);
    if (step.penaltyOrdinal !== null)
      disconnectPenalties.push({ player: report.id, ordinal: step.penaltyOrdinal });
    counters.push(step.counter);
  }
  return { status: 'scored', game, effects: score.effects, counters, disconnectPenalties };
}

/** Keeps only the report fields the rule set reads: a game record lives as long as the ladder. */
function trimReports(players: readonly PlayerReport[], rules: RuleSet): PlayerReport[] {
  const fields = rules.reportFields;
  const trimmed: PlayerReport[] = [];
  for (const p of players) {
    const kept: Record<string, unknown> = { id: p.id };
    for (const field of fields) {
      if (p[field] !== undefined) kept[field] = p[field];
    }
    trimmed.push(kept as unknown as PlayerReport);
  }
  return trimmed;
}

/** Recomputes a recorded game with corrected players, from the state saved before it. */
function rescore(
  ladder: LadderConfig,
  rules: RuleSet,
  record: GameRecord,
  players: readonly PlayerReport[],
): GameScore {
  return rules.score({
    ladder,
    moves: record.moves,
    setting: record.setting,
    players,
    before: unpackSnapshots(record.before),
  });
}

/**
 * Decides a correction: the game's current effect is taken back and the corrected one applied
 * to the players' current state (the fold does both). Later games are not re-rated. A covered
 * game is only ever voided (for good: it is covered still, so later corrections change nothing).
 */
export function decideCorrection(
  ladder: LadderConfig,
  rules: RuleSet,
  event: GameCorrected,
  record: GameRecord | undefined,
): CorrectionDecision {
  const voiding = event.void === true;
  const corrected = voiding ? undefined : event.players;
  if (corrected) {
    const roster = checkRoster(rules, corrected);
    if (roster) return rejected(roster);
  }
  if (!record) return rejected(reject('unknown-game', `${ladder.id} has no game ${event.gameId}`));
  if (record.voidOnArrival !== null) return { status: 'unchanged' };
  let players = record.players;
  let effects = zeroEffects(record.players);
  if (corrected) {
    if (corrected.length !== record.players.length) {
      return rejected(
        reject(
          'wrong-player-count',
          `game ${event.gameId} has ${record.players.length} players, not ${corrected.length}`,
        ),
      );
    }
    const byId = new Map(corrected.map((p) => [p.id, p]));
    const stranger = corrected.find((p) => !record.players.some((q) => q.id === p.id));
    if (stranger)
      return rejected(
        reject('inconsistent-result', `player ${stranger.id} is not in game ${event.gameId}`),
      );
    players = trimReports(
      record.players.map((p) => ({ ...p, ...byId.get(p.id) })),
      rules,
    );
    const missing = rules.requiredFields(players, record.setting);
    if (missing) return rejected(reject('invalid-event', missing));
    const score = rescore(ladder, rules, record, players);
    if (score.kind === 'rejected') return rejected(score.rejection);
    // Checked like any other, so that an annulment never turns an accepted correction into a
    // rejected one; but a covered game stays as played whatever the new results.
    if (record.covered) return { status: 'unchanged' };
    if (score.kind === 'scored') effects = score.effects;
  }
  return {
    status: 'corrected',
    players,
    previous: record.players.map((_, i) => unpackEffect(record.effects, i)),
    effects,
    why: { kind: 'correction', gameId: event.gameId, void: voiding },
  };
}
