import { loadEnvironment, loadLadders } from '@ranking/config';
import { parseEvent } from '@ranking/contracts';
import { topicNames } from '@ranking/kafka';
import {
  ClockStore,
  copyCheckpoints,
  createDataSource,
  DisconnectCounterStore,
  exportLog,
  EventStoreRepository,
  MaintenanceOutbox,
  sqlOf,
} from '@ranking/persistence';
import { MaintenanceLedger } from '@ranking/rating';
import { Command, CommandRunner } from 'nest-commander';
import { CommandLog } from '../command-log.js';

/** The consumer names of the two services' checkpoints (consumer_offsets.consumer). */
const RATING_CONSUMER = 'rating-service';
const MAINTENANCE_CONSUMER = 'maintenance-service';

/** `ranking rebuild-counters`: the maintenance service's state, re-derived from the event store. */
@Command({
  name: 'rebuild-counters',
  description:
    "rebuild the maintenance service's disconnect counters and period clocks from the event " +
    'store, and resume it where the rating service stands (stop the maintenance service first)',
})
export class RebuildCountersCommand extends CommandRunner {
  async run(): Promise<void> {
    const env = loadEnvironment();
    const ladders = loadLadders(env);
    const topic = topicNames(env.KAFKA_TOPIC_PREFIX).ladderEvents;
    const db = createDataSource(env.DATABASE_URL, 'ranking-rebuild-counters');
    await db.initialize();
    try {
      // One snapshot: the log read and the rating service's checkpoints describe one moment.
      const summary = await db.transaction('REPEATABLE READ', async (manager) => {
        const sql = sqlOf(manager);
        const ledger = new MaintenanceLedger(ladders);
        let events = 0;
        for await (const page of exportLog(sql, null)) {
          for (const line of page.split('\n')) {
            if (line === '') continue;
            const parsed = parseEvent(line);
            if (parsed.ok) ledger.add(parsed.event);
            events++;
          }
        }
        const rows = [...ledger.counters].flatMap(([ladder, counters]) =>
          [...counters].map(([player, c]) => ({ ladder, player, ...c })),
        );
        await new DisconnectCounterStore(sql).replaceAll(rows, ledger.counted);
        await new ClockStore(sql).replaceAll(
          [...ledger.openWindows()].flatMap(([ladder, windows]) =>
            windows.map((w) => ({ ladder, period: w.period, key: w.key, closesAt: w.closesAt })),
          ),
        );
        // A penalty decided but not in the store yet (lost with the old state) is decided again.
        const stored = await new EventStoreRepository(sql).knownEventIds(
          ledger.penalties.map((p) => p.id),
        );
        const missing = ledger.penalties.filter((p) => !stored.has(p.id));
        await new MaintenanceOutbox(sql).enqueue(
          missing.map((p) => ({ topic, key: p.ladder, value: JSON.stringify(p) })),
        );
        const partitions = await copyCheckpoints(sql, RATING_CONSUMER, MAINTENANCE_CONSUMER, topic);
        return { events, counters: rows.length, missing: missing.length, partitions };
      });
      new CommandLog('rebuild-counters', { stream: 'stdout' }).info(
        `rebuilt from ${summary.events} stored events: ${summary.counters} disconnect counters, ` +
          `${summary.missing} penalties re-queued, checkpoints of ${summary.partitions} partitions`,
        {
          events: summary.events,
          counters: summary.counters,
          penaltiesRequeued: summary.missing,
          partitions: summary.partitions,
        },
      );
    } finally {
      await db.destroy();
    }
  }
}
