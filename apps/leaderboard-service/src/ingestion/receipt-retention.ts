import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { Environment } from '@ranking/config';
import { IngestReceiptRepository, sqlOf } from '@ranking/persistence';
import type { DataSource } from 'typeorm';
import { Metrics } from '../ops/metrics.js';
import { DATA_SOURCE, ENVIRONMENT } from '../tokens.js';

/** How often the receipts past their retention are looked for (and once at start-up). */
export const RECEIPT_PURGE_EVERY_MS = 60 * 60_000;

/**
 * Keeps `ingest_receipts` to INGEST_RECEIPT_RETENTION_DAYS (ADR 42): at start-up and every
 * hour, the receipts older than that are deleted, oldest first, a bounded batch a statement
 * (IngestReceiptRepository.purgeOlderThan). Here rather than in the maintenance service: the
 * leaderboard service writes the receipts, and so owns the table and its size. Replicas purging
 * at once skip each other's rows. On the background pool: no statement timeout cuts a batch,
 * and the API's connections stay for requests. A failure (PostgreSQL away) is logged and tried
 * again at the next hour; nothing depends on the purge but the table's size.
 */
@Injectable()
export class ReceiptRetention implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ReceiptRetention.name);
  private readonly receipts: IngestReceiptRepository;
  private timer: NodeJS.Timeout | null = null;
  private purging: Promise<void> | null = null;
  private stopping = false;

  constructor(
    @Inject(DATA_SOURCE) db: DataSource,
    @Inject(ENVIRONMENT) private readonly env: Environment,
    private readonly metrics: Metrics,
  ) {
    this.receipts = new IngestReceiptRepository(sqlOf(db.manager));
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.purge(), RECEIPT_PURGE_EVERY_MS);
    void this.purge();
  }

  /** Stops between two batches: what is deleted stays deleted, the rest waits for next time. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.purging;
  }

  purge(): Promise<void> {
    this.purging ??= this.purgeOnce().finally(() => (this.purging = null));
    return this.purging;
  }

  private async purgeOnce(): Promise<void> {
    const days = this.env.INGEST_RECEIPT_RETENTION_DAYS;
    try {
      const deleted = await this.receipts.purgeOlderThan(days, undefined, (batch) => {
        this.metrics.receiptsPurged.inc(batch);
        return !this.stopping;
      });
      if (deleted > 0)
        this.logger.log(`deleted ${deleted} receipts older than ${days} days`, { deleted, days });
    } catch (error) {
      this.logger.warn(`receipts not purged: ${(error as Error).message}; trying again in an hour`);
    }
  }
}
