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
 * Watches for the boards' ready marker. It is missing on a first start and whenever Redis lost
 * its data (flush, restart without persistence): then the boards are rebuilt from PostgreSQL,
 * with no manual step. While Redis is unreachable the check just fails and is tried again.
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

  check(): Promise<void> {
    this.checking ??= this.checkOnce().finally(() => (this.checking = null));
    return this.checking;
  }

  private async checkOnce(): Promise<void> {
    try {
      const ready = await this.store.isReady();
      this.heads.boardsFound(ready);
      if (ready) {
        if (this.lastProblem) this.logger.log('boards available again');
        this.lastProblem = '';
        return;
      }
      this.logger.log('boards missing in Redis: rebuilding from PostgreSQL');
      await this.builder.serial(() => this.builder.rebuildAll());
      this.lastProblem = '';
    } catch (error) {
      const problem = (error as Error).message;
      if (problem !== this.lastProblem) this.logger.warn(`boards unavailable: ${problem}`);
      this.lastProblem = problem;
    }
  }
}
