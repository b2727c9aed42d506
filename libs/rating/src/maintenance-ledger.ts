import type { LadderEvent, PlayerPenalized } from '@ranking/contracts';
import { dueCloses, openingWindows } from './close-schedule.js';
import type { DisconnectCounter } from './disconnect-policy.js';
import { disconnectRuleOf, tallyDisconnects } from './disconnect-tally.js';
import type { LadderConfig } from './ladder-config.js';
import { eventInstant } from './ladder-fold.js';
import { PeriodCalendar, type PeriodWindow } from './period-clock.js';
import { RULE_SETS } from './rule-sets.js';

/**
 * The maintenance service's state re-derived from accepted events in log order (the event
 * store): disconnect counters, the games they counted, the penalties they called for, and
 * each ladder's clock, started at its first event and moved past the closes already stored.
 */
export class MaintenanceLedger {
  readonly counters = new Map<string, Map<string, DisconnectCounter>>();
  readonly counted: { ladder: string; eventId: string }[] = [];
  readonly penalties: PlayerPenalized[] = [];
  private readonly clocks = new Map<string, { start: number; lastClose: number }>();

  constructor(private readonly ladders: ReadonlyMap<string, LadderConfig>) {}

  /** One stored event; events of unknown ladders are passed over. */
  add(event: LadderEvent): void {
    const ladder = this.ladders.get(event.ladder);
    if (!ladder) return;
    const calendar = PeriodCalendar.of(ladder.timezone);
    const at = eventInstant(event, calendar);
    let clock = this.clocks.get(ladder.id);
    if (!clock && event.type !== 'game.corrected') {
      clock = { start: at, lastClose: Number.NEGATIVE_INFINITY };
      this.clocks.set(ladder.id, clock);
    }
    if (clock && event.type === 'period.closed') clock.lastClose = Math.max(clock.lastClose, at);
    if (event.type === 'game.finished' && disconnectRuleOf(ladder) !== null) {
      let counters = this.counters.get(ladder.id);
      if (!counters) {
        counters = new Map<string, DisconnectCounter>();
        this.counters.set(ladder.id, counters);
      }
      this.counted.push({ ladder: ladder.id, eventId: event.id });
      this.penalties.push(...tallyDisconnects(ladder, event, counters));
    }
  }

  /** Each ladder's open windows: after its first event and every close already stored. */
  openWindows(): Map<string, PeriodWindow[]> {
    const out = new Map<string, PeriodWindow[]>();
    for (const [id, clock] of this.clocks) {
      const ladder = this.ladders.get(id)!;
      const calendar = PeriodCalendar.of(ladder.timezone);
      const open = openingWindows(RULE_SETS[ladder.ruleSet], calendar, clock.start);
      out.set(id, dueCloses(open, calendar, clock.lastClose).open);
    }
    return out;
  }
}
