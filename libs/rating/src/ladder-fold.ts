import {
  type GameCorrected,
  type GameFinished,
  instantMillis,
  type LadderEvent,
  type PeriodClosed,
  type PlayerPenalized,
  type Rejection,
  type VoidReason,
} from '@ranking/contracts';
import { decideCorrection, decideGame, type GameOutcome } from './game-decision.js';
import type { GameRecord } from './game-record.js';
import { decodeRecord, encodeRecord } from './game-record-codec.js';
import type { LadderConfig } from './ladder-config.js';
import { penalize } from './penalty.js';
import { PeriodCalendar, type PeriodWindow } from './period-clock.js';
import type { PlayerChange } from './player-change.js';
import { newPlayer, type PlayerState, updatePlayer } from './player-state.js';
import type { RuleSet } from './rule-set.js';
import { RULE_SETS } from './rule-sets.js';

/** What one event did to a ladder. */
export type LadderOutcome =
  | { readonly status: 'rejected'; readonly rejection: Rejection }
  | { readonly status: 'void'; readonly reason: VoidReason }
  | {
      readonly status: 'applied';
      readonly changes: readonly PlayerChange[];
      readonly disconnectPenalties: readonly { player: string; ordinal: number }[];
    };

/** A ladder's whole state as plain data (JSON-safe). */
export interface LadderSnapshot {
  readonly ladder: string;
  readonly players: readonly PlayerState[];
  readonly games: readonly GameRecord[];
  readonly closed: readonly string[];
  readonly accepted: number;
}

const NOTHING: LadderOutcome = { status: 'applied', changes: [], disconnectPenalties: [] };

/** The instant an event happens at, in epoch ms (for period closes, the close itself). */
export function eventInstant(event: LadderEvent, calendar: PeriodCalendar): number {
  switch (event.type) {
    case 'game.finished':
      return instantMillis(event.finishedAt);
    case 'game.corrected':
      return instantMillis(event.correctedAt);
    case 'player.penalized':
      return instantMillis(event.at);
    case 'period.closed':
      return calendar.window(event.period, event.key).closesAt;
  }
}

/**
 * One ladder's state in memory, folded event by event: the reference projection that the
 * offline replay, the rebuild and the tests use. Decisions come from the pure functions.
 */
export class LadderFold {
  readonly rules: RuleSet;
  readonly calendar: PeriodCalendar;
  readonly players = new Map<string, PlayerState>();
  /**
   * Game records for corrections, kept encoded (see game-record-codec.ts): a record lives as
   * long as the ladder, and one short string costs a fraction of the objects it stands for.
   */
  private readonly games = new Map<string, string>();
  private readonly closed = new Set<string>();
  /** Events this ladder accepted (applied or void). */
  accepted = 0;

  constructor(readonly ladder: LadderConfig) {
    this.rules = RULE_SETS[ladder.ruleSet];
    this.calendar = PeriodCalendar.of(ladder.timezone);
  }

  /** Plain data that `LadderFold.restore` turns back into the same fold. */
  snapshot(): LadderSnapshot {
    return {
      ladder: this.ladder.id,
      players: [...this.players.values()],
      games: [...this.games].map(([id, text]) => decodeRecord(id, text, this.rules)),
      closed: [...this.closed],
      accepted: this.accepted,
    };
  }

  /** The game records as kept (encoded), by game id: what a store writes without re-encoding. */
  encodedGames(): ReadonlyMap<string, string> {
    return this.games;
  }

  static restore(ladder: LadderConfig, snapshot: LadderSnapshot): LadderFold {
    const fold = new LadderFold(ladder);
    for (const p of snapshot.players) fold.players.set(p.id, p);
    for (const g of snapshot.games) fold.keep(g);
    for (const c of snapshot.closed) fold.closed.add(c);
    fold.accepted = snapshot.accepted;
    return fold;
  }

  isClosed(period: PeriodClosed['period'], key: string): boolean {
    return this.closed.has(`${period}:${key}`);
  }

  player(id: string): PlayerState {
    return this.players.get(id) ?? newPlayer(id, this.ladder);
  }

  evolve(event: LadderEvent): LadderOutcome {
    const outcome = this.decide(event);
    if (outcome.status !== 'rejected') this.accepted += 1;
    return outcome;
  }

  /** Whether the event would be rejected, without changing anything. */
  rejectionOf(event: LadderEvent): Rejection | null {
    if (event.type !== 'game.finished' && event.type !== 'game.corrected') return null;
    const outcome = this.gameOutcome(event);
    return outcome.status === 'rejected' ? outcome.rejection : null;
  }

  private decide(event: LadderEvent): LadderOutcome {
    switch (event.type) {
      case 'game.finished':
      case 'game.corrected':
        return this.settle(this.gameOutcome(event));
      case 'player.penalized':
        return this.penalize(event);
      case 'period.closed':
        return this.close(this.calendar.window(event.period, event.key));
    }
  }

  /** The pure decision for a game or a correction, from the players' current state. */
  private gameOutcome(event: GameFinished | GameCorrected): GameOutcome {
    if (event.type === 'game.finished') {
      const before: PlayerState[] = [];
      for (const p of event.players) before.push(this.player(p.id));
      const time = { finishedAt: instantMillis(event.finishedAt), calendar: this.calendar };
      return decideGame(this.ladder, this.rules, event, before, time);
    }
    const stored = this.games.get(event.gameId);
    const record =
      stored === undefined ? undefined : decodeRecord(event.gameId, stored, this.rules);
    const current = record ? record.players.map((p) => this.player(p.id)) : [];
    const time = { finishedAt: record?.finishedAt ?? 0, calendar: this.calendar };
    return decideCorrection(this.ladder, this.rules, event, record, current, time);
  }

  private settle(outcome: GameOutcome): LadderOutcome {
    switch (outcome.status) {
      case 'rejected':
        return outcome;
      case 'void':
        this.keep(outcome.record);
        return { status: 'void', reason: outcome.reason };
      case 'unchanged':
        if (outcome.record) this.keep(outcome.record);
        return NOTHING;
      case 'applied':
        this.keep(outcome.record);
        for (const p of outcome.players) this.players.set(p.id, p);
        return {
          status: 'applied',
          changes: outcome.changes,
          disconnectPenalties: outcome.disconnectPenalties,
        };
    }
  }

  private keep(record: GameRecord): void {
    this.games.set(record.gameId, encodeRecord(record, this.rules));
  }

  private penalize(event: PlayerPenalized): LadderOutcome {
    const policy = this.rules.penalties;
    if (!policy) return NOTHING;
    const before = this.player(event.player);
    const rating = penalize(before.rating, event.points, policy.floor);
    this.players.set(before.id, updatePlayer(before, { rating }));
    const why = {
      kind: 'penalty' as const,
      reason: event.reason,
      points: event.points,
      floor: policy.floor,
    };
    const change = {
      player: before.id,
      before: before.rating,
      after: rating,
      delta: rating - before.rating,
      result: null,
      why,
    };
    return { status: 'applied', changes: [change], disconnectPenalties: [] };
  }

  /** Closes a period once; the rule set acts on every player. */
  close(window: PeriodWindow): LadderOutcome {
    const id = `${window.period}:${window.key}`;
    if (this.closed.has(id)) return NOTHING;
    this.closed.add(id);
    const rules = this.rules;
    if (!rules.closePeriod || !rules.closes.includes(window.period)) return NOTHING;
    const changes: PlayerChange[] = [];
    for (const player of this.players.values()) {
      const result = rules.closePeriod(window, player, this.ladder);
      if (!result) continue;
      this.players.set(player.id, result.player);
      if (result.why) {
        const after = result.player.rating;
        changes.push({
          player: player.id,
          before: player.rating,
          after,
          delta: after - player.rating,
          result: null,
          why: result.why,
        });
      }
    }
    return { status: 'applied', changes, disconnectPenalties: [] };
  }
}
