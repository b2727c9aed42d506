import { type GameFinished, instantMillis, type PlayerPenalized } from '@ranking/contracts';
import {
  countDisconnect,
  type DisconnectCounter,
  disconnectPenaltyId,
  NO_DISCONNECTS,
  type DisconnectRule,
} from './disconnect-policy.js';
import { decideGame } from './game-decision.js';
import type { LadderConfig } from './ladder-config.js';
import { PeriodCalendar } from './period-clock.js';
import { newPlayersBefore } from './player-table.js';
import { RULE_SETS } from './rule-sets.js';

export { NO_DISCONNECTS };

/** One player's report in a game that moves disconnect counters. */
export interface DisconnectReport {
  readonly player: string;
  readonly disconnected: boolean;
}

/** The ladder's disconnect rule (its params' numbers) when it keeps the counter, else null. */
export const disconnectRuleOf = (ladder: LadderConfig): DisconnectRule | null =>
  RULE_SETS[ladder.ruleSet].disconnects(ladder);

/**
 * The players whose disconnect counter a finished game moves, as the fold decides it: none
 * when the ladder keeps no counter or the game is rejected, void or not scored. The only
 * rule set with the counter (igame-elo) rejects and voids from the event alone, so the
 * decision runs on fresh players and needs no ladder state.
 */
export function disconnectReports(ladder: LadderConfig, event: GameFinished): DisconnectReport[] {
  const rules = RULE_SETS[ladder.ruleSet];
  if (rules.disconnects(ladder) === null) return [];
  const time = {
    finishedAt: instantMillis(event.finishedAt),
    calendar: PeriodCalendar.of(ladder.timezone),
  };
  const outcome = decideGame(ladder, rules, event, newPlayersBefore(ladder), time);
  if (outcome.status !== 'scored') return [];
  return event.players.map((p) => ({ player: p.id, disconnected: p.disconnected === true }));
}

/**
 * The `player.penalized` a counter reaching the limit triggers, stamped with the game's time,
 * for the ladder's `disconnectPenalty` points.
 */
export function disconnectPenaltyEvent(
  ladder: LadderConfig,
  player: string,
  ordinal: number,
  at: string,
): PlayerPenalized {
  const rule = disconnectRuleOf(ladder);
  if (rule === null) throw new Error(`ladder ${ladder.id} keeps no disconnect counter`);
  return {
    id: disconnectPenaltyId(ladder.id, player, ordinal),
    type: 'player.penalized',
    ladder: ladder.id,
    player,
    points: rule.disconnectPenalty,
    reason: 'disconnects',
    at,
  };
}

/**
 * Folds one finished game into the counters of its players (a map the caller owns) and
 * returns the penalties it triggers, in the game's player order.
 */
export function tallyDisconnects(
  ladder: LadderConfig,
  event: GameFinished,
  counters: Map<string, DisconnectCounter>,
): PlayerPenalized[] {
  const rule = disconnectRuleOf(ladder);
  if (rule === null) return [];
  const penalties: PlayerPenalized[] = [];
  for (const report of disconnectReports(ladder, event)) {
    const step = countDisconnect(
      counters.get(report.player) ?? NO_DISCONNECTS,
      report.disconnected,
      rule,
    );
    counters.set(report.player, step.counter);
    if (step.penaltyOrdinal !== null)
      penalties.push(
        disconnectPenaltyEvent(ladder, report.player, step.penaltyOrdinal, event.finishedAt),
      );
  }
  return penalties;
}
