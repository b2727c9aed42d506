import { type GameFinished, type LadderEvent, parseEvent } from '@ranking/contracts';
import { applyAboveCheckpoints, type ConsumedMessage } from '@ranking/kafka';
import {
  ClockStore,
  type CounterRow,
  DisconnectCounterStore,
  MaintenanceOutbox,
  OffsetStore,
  type Sql,
} from '@ranking/persistence';
import {
  eventInstant,
  type LadderConfig,
  LadderFold,
  openingWindows,
  PeriodCalendar,
  disconnectRuleOf,
  RULE_SETS,
  tallyDisconnects,
} from '@ranking/rating';

/** The consumer name under which the maintenance service keeps its checkpoints. */
export const MAINTENANCE_CONSUMER = 'maintenance-service';

export interface MaintenanceBatchResult {
  readonly clocksStarted: number;
  readonly gamesCounted: number;
  readonly penalties: number;
  readonly skipped: number;
}

/**
 * Whether the rating service will accept the event (so it may start the ladder's clock). A
 * correction is never a ladder's first accepted event (it needs a known game): it is passed over.
 */
function startsClock(ladder: LadderConfig, event: LadderEvent): boolean {
  switch (event.type) {
    case 'game.finished':
      return new LadderFold(ladder).rejectionOf(event) === null;
    case 'game.corrected':
      return false;
    case 'period.closed':
    case 'player.penalized':
    case 'player.annulled':
      return true;
  }
}

/**
 * Fresh messages (above their checkpoints) in the caller's transaction: they start ladder
 * clocks and move disconnect counters; penalties go to the outbox.
 */
export async function applyMaintenanceMessages(
  sql: Sql,
  ladders: ReadonlyMap<string, LadderConfig>,
  topic: string,
  fresh: readonly ConsumedMessage[],
): Promise<Omit<MaintenanceBatchResult, 'skipped'> & { penaltiesByLadder: Map<string, number> }> {
  const starts = new Map<string, number>();
  const games = new Map<string, GameFinished[]>();
  for (const message of fresh) {
    // Bad messages are the rating service's to reject and dead-letter; here they count for nothing.
    if (!message.value) continue;
    const parsed = parseEvent(message.value);
    if (!parsed.ok) continue;
    const event = parsed.event;
    const ladder = ladders.get(event.ladder);
    if (!ladder || !startsClock(ladder, event)) continue;
    if (!starts.has(ladder.id))
      starts.set(ladder.id, eventInstant(event, PeriodCalendar.of(ladder.timezone)));
    if (event.type === 'game.finished' && disconnectRuleOf(ladder) !== null)
      games.set(ladder.id, [...(games.get(ladder.id) ?? []), event]);
  }

  await new ClockStore(sql).start(
    [...starts].flatMap(([id, at]) => {
      const ladder = ladders.get(id)!;
      return openingWindows(RULE_SETS[ladder.ruleSet], PeriodCalendar.of(ladder.timezone), at).map(
        (w) => ({ ladder: id, period: w.period, key: w.key, closesAt: w.closesAt }),
      );
    }),
  );

  const store = new DisconnectCounterStore(sql);
  const outbox = new MaintenanceOutbox(sql);
  let gamesCounted = 0;
  let penalties = 0;
  const penaltiesByLadder = new Map<string, number>();
  for (const [id, ladderGames] of games) {
    const ladder = ladders.get(id)!;
    // A repeated id (a game sent twice) counts once, as the rating service applies it once.
    const uncounted = await store.markCounted(
      id,
      ladderGames.map((g) => g.id),
    );
    const counting = ladderGames.filter((g) => uncounted.delete(g.id));
    if (counting.length === 0) continue;
    const players = [...new Set(counting.flatMap((g) => g.players.map((p) => p.id)))];
    const counters = await store.load(id, players);
    const decided = counting.flatMap((g) => tallyDisconnects(ladder, g, counters));
    const rows: CounterRow[] = players.flatMap((player) => {
      const c = counters.get(player);
      return c ? [{ ladder: id, player, ...c }] : [];
    });
    await store.save(rows);
    await outbox.enqueue(decided.map((e) => ({ topic, key: id, value: JSON.stringify(e) })));
    gamesCounted += counting.length;
    penalties += decided.length;
    if (decided.length > 0) penaltiesByLadder.set(id, decided.length);
  }

  return { clocksStarted: starts.size, gamesCounted, penalties, penaltiesByLadder };
}

/**
 * One partition's batch in the caller's transaction through the shared checkpoint guard:
 * what the consumer's handler does, with the counts returned (tests use it).
 */
export async function handleMaintenanceBatch(
  sql: Sql,
  ladders: ReadonlyMap<string, LadderConfig>,
  topic: string,
  partition: number,
  messages: readonly ConsumedMessage[],
  /** The partition's log end with this batch: a checkpoint beyond it means a recreated log. */
  logEnd?: bigint,
): Promise<MaintenanceBatchResult & { nextOffset: bigint | null; logRecreated: boolean }> {
  let result = { clocksStarted: 0, gamesCounted: 0, penalties: 0 };
  const guarded = await applyAboveCheckpoints(
    sql,
    OffsetStore.checkpointsOf(MAINTENANCE_CONSUMER, topic),
    [{ partition, messages, ...(logEnd === undefined ? {} : { logEnd }) }],
    async (tx, fresh) => {
      const { clocksStarted, gamesCounted, penalties } = await applyMaintenanceMessages(
        tx,
        ladders,
        topic,
        fresh,
      );
      result = { clocksStarted, gamesCounted, penalties };
    },
  );
  return {
    ...result,
    skipped: guarded.skipped,
    nextOffset: guarded.next.get(partition) ?? null,
    logRecreated: guarded.recreated.includes(partition),
  };
}
