import {
  type GameCorrected,
  type GameFinished,
  type PlayerReport,
  type Rejection,
  type VoidReason,
  reject,
} from '@ranking/contracts';
import { countDisconnect, type DisconnectCounter } from './disconnect-policy.js';
import { NO_EFFECT, packEffects, type PlayerEffect, unpackEffect } from './effect.js';
import { applyEffect, type GameTime } from './effect-application.js';
import type { GameRecord } from './game-record.js';
import type { LadderConfig } from './ladder-config.js';
import type { PlayerChange } from './player-change.js';
import {
  packSnapshots,
  type PlayerSnapshot,
  type PlayerState,
  snapshotOf,
  unpackSnapshots,
} from './player-state.js';
import { type GameScore, type GameSetting, type RuleSet, settingOf } from './rule-set.js';

/** What a game (or a correction of one) does to the ladder. */
export type GameOutcome =
  | { readonly status: 'rejected'; readonly rejection: Rejection }
  /** Accepted but moves nothing: void on arrival (listed), or a no-op correction. */
  | { readonly status: 'void'; readonly reason: VoidReason; readonly record: GameRecord }
  | { readonly status: 'unchanged'; readonly record: GameRecord | null }
  | {
      readonly status: 'applied';
      /** The new state of each player of the game, in the game's order. */
      readonly players: readonly PlayerState[];
      readonly changes: readonly PlayerChange[];
      readonly record: GameRecord;
      /** Players whose disconnect counter reached the limit in this game, with the penalty's ordinal. */
      readonly disconnectPenalties: readonly { player: string; ordinal: number }[];
    };

const rejected = (rejection: Rejection): GameOutcome => ({ status: 'rejected', rejection });

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

function changesOf(
  before: readonly PlayerState[],
  after: readonly PlayerState[],
  effects: readonly PlayerEffect[],
): PlayerChange[] {
  const changes: PlayerChange[] = [];
  for (let i = 0; i < after.length; i++) {
    const rating = after[i]!.rating;
    changes.push({
      player: after[i]!.id,
      before: before[i]!.rating,
      after: rating,
      delta: rating - before[i]!.rating,
      result: effects[i]!.result,
      why: effects[i]!.why,
    });
  }
  return changes;
}

/**
 * Decides a finished game from the event and the players' state before it (same order as
 * `event.players`; unknown players come in as new players). Pure: returns the new states.
 */
export function decideGame(
  ladder: LadderConfig,
  rules: RuleSet,
  event: GameFinished,
  before: readonly PlayerState[],
  time: GameTime,
): GameOutcome {
  const roster = checkRoster(rules, event.players);
  if (roster) return rejected(roster);
  const setting = settingOf(event.context);
  const missing = rules.requiredFields(event.players, setting);
  if (missing) return rejected(reject('invalid-event', missing));
  const dayKey = rules.tracksDailyCaptures ? time.calendar.dayKey(time.finishedAt) : null;
  const snapshots: PlayerSnapshot[] = [];
  for (const p of before) snapshots.push(snapshotOf(p, dayKey));
  const input = { ladder, moves: event.moves, setting, players: event.players, before: snapshots };
  const score = rules.score(input);
  switch (score.kind) {
    case 'rejected':
      return rejected(score.rejection);
    case 'void':
      return {
        status: 'void',
        reason: score.reason,
        record: gameRecord(event, time, setting, rules, snapshots, null, score.reason),
      };
    case 'recorded':
      return {
        status: 'unchanged',
        record: gameRecord(event, time, setting, rules, snapshots, null, null),
      };
    case 'scored':
      break;
  }
  const disconnectPenalties: { player: string; ordinal: number }[] = [];
  const after: PlayerState[] = [];
  for (let i = 0; i < before.length; i++) {
    const player = before[i]!;
    let counter: DisconnectCounter | null = null;
    if (rules.countsDisconnects) {
      const step = countDisconnect(
        {
          count: player.disconnects,
          streak: player.cleanStreak,
          penalties: player.disconnectPenalties,
        },
        event.players[i]!.disconnected === true,
      );
      if (step.penaltyOrdinal !== null)
        disconnectPenalties.push({ player: player.id, ordinal: step.penaltyOrdinal });
      counter = step.counter;
    }
    after.push(applyEffect(player, score.effects[i]!, 1, rules, time, counter));
  }
  return {
    status: 'applied',
    players: after,
    changes: changesOf(before, after, score.effects),
    record: gameRecord(event, time, setting, rules, snapshots, score.effects, null),
    disconnectPenalties,
  };
}

/** The record a ladder keeps of a decided game; no effects means zero effects (void, recorded). */
function gameRecord(
  event: GameFinished,
  time: GameTime,
  setting: GameSetting,
  rules: RuleSet,
  snapshots: readonly PlayerSnapshot[],
  effects: readonly PlayerEffect[] | null,
  voidOnArrival: VoidReason | null,
): GameRecord {
  return {
    gameId: event.gameId,
    finishedAt: time.finishedAt,
    moves: event.moves,
    setting,
    players: trimReports(event.players, rules),
    before: packSnapshots(snapshots),
    effects: packEffects(effects ?? zeroEffects(event.players)),
    voidOnArrival,
  };
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
 * to the players' current state. Later games are not re-rated. `current` follows `record.players`.
 */
export function decideCorrection(
  ladder: LadderConfig,
  rules: RuleSet,
  event: GameCorrected,
  record: GameRecord | undefined,
  current: readonly PlayerState[],
  time: GameTime,
): GameOutcome {
  const voiding = event.void === true;
  const corrected = voiding ? undefined : event.players;
  if (corrected) {
    const roster = checkRoster(rules, corrected);
    if (roster) return rejected(roster);
  }
  if (!record) return rejected(reject('unknown-game', `${ladder.id} has no game ${event.gameId}`));
  if (record.voidOnArrival !== null) return { status: 'unchanged', record };
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
    if (score.kind === 'scored') effects = score.effects;
  }
  const gameTime = { ...time, finishedAt: record.finishedAt };
  const after = current.map((player, i) =>
    applyEffect(
      applyEffect(player, unpackEffect(record.effects, i), -1, rules, gameTime),
      effects[i]!,
      1,
      rules,
      gameTime,
    ),
  );
  const why = { kind: 'correction' as const, gameId: event.gameId, void: voiding };
  return {
    status: 'applied',
    players: after,
    changes: after.map((p, i) => ({
      player: p.id,
      before: current[i]!.rating,
      after: p.rating,
      delta: p.rating - current[i]!.rating,
      result: effects[i]!.result,
      why,
    })),
    record: { ...record, players, effects: packEffects(effects) },
    disconnectPenalties: [],
  };
}
