import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { BoardStore } from '@ranking/redis';
import { BoardBuilder } from './board-builder.js';
import { BoardHeads } from './board-heads.js';

const CHECK_MS = 1_000;

/**
 * Watches for the ladders' ready markers. A ladder's is missing on a first start, after an
 * upgrade of the key layout, and whenever Redis lost its data (flush, restart without
 * persistence; in a cluster, the master that holds the ladder's slot): then that ladder's
 * boards are rebuilt from PostgreSQL, with no manual step. While Redis is unreachable the check
 * just fails and is tried again.
 */
@Injectable()
export class BoardKeeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(BoardKeeper.name);
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private lastProblem = '';

  constructor(
    private readonly store: BoardStore,
    private readonly builder: BoardBuilder,
    private readonly heads: BoardHeads,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.check(), CHECK_MS);
    void this.check();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.checking;
  }

  /** Whether every ladder's boards are loaded (readiness). */
  isReady(): Promise<boolean> {
    return this.store.isReady(this.builder.boardLadders);
  }

  check(): Promise<void> {
    this.checking ??= this.checkOnce().finally(() => (this.checking = null));
    return this.checking;
  }

  private async checkOnce(): Promise<void> {
    try {
      const missing = await this.store.unready(this.builder.boardLadders);
      this.heads.boardsFound(missing.length === 0);
      if (missing.length === 0) {
        if (this.lastProblem) this.logger.log('boards available again');
        this.lastProblem = '';
        return;
      }
      this.logger.log('boards missing in Redis: rebuilding from PostgreSQL', { ladders: missing });
      // Only the ladders still missing once the queue gets to it: the others' boards are whole
      // and kept up to date.
      await this.builder.serial(async () => {
        const still = await this.store.unready(this.builder.boardLadders);
        if (still.length > 0) await this.builder.rebuild(still);
      });
      this.lastProblem = '';
    } catch (error) {
      const problem = (error as Error).message;
      if (problem !== this.lastProblem) this.logger.warn(`boards unavailable: ${problem}`);
      this.lastProblem = problem;
    }
  }
}
