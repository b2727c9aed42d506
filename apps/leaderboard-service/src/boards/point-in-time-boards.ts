import { Inject, Injectable } from '@nestjs/common';
import type { Environment } from '@ranking/config';
import { type HistoryCut, PointInTimeReader } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import { LRUCache } from 'lru-cache';
import { Metrics } from '../ops/metrics.js';
import { ENVIRONMENT } from '../tokens.js';
import { BuildGate, BuildsBusyError } from './build-gate.js';
import { PointInTimeBoard } from './point-in-time-board.js';

/**
 * Players' rows kept over all cached boards: about 200 bytes each in memory, so some 100 MB,
 * e.g. five boards of 100,000 players. A board larger than this is read again per request.
 */
export const CACHED_ROWS = 500_000;

export interface BoardAsOf {
  /** The ladder's last history row by the instant; null before its first change. */
  readonly cut: HistoryCut | null;
  readonly board: PointInTimeBoard;
}

/**
 * Boards as of an instant (ADR 20), computed from the rating history and kept in memory by
 * (ladder, cut): every instant between two changes of a ladder has the same cut, so paging
 * through a board and looking players up on it read the history once. A board being read is
 * shared by the requests that want it meanwhile. A board not in memory costs a pass over the
 * ladder's players, so at most POINT_IN_TIME_BUILDS are read at once and POINT_IN_TIME_QUEUE
 * wait; a request past those is refused (BuildsBusyError: 503 with Retry-After) while the
 * boards in memory are still answered.
 */
@Injectable()
export class PointInTimeBoards {
  private readonly boards = new LRUCache<string, PointInTimeBoard>({
    maxSize: CACHED_ROWS,
    sizeCalculation: (board) => board.players + 1,
  });
  private readonly reading = new Map<string, Promise<PointInTimeBoard>>();
  private readonly empty = new WeakMap<LadderConfig, PointInTimeBoard>();
  private readonly gate: BuildGate;

  constructor(
    private readonly reader: PointInTimeReader,
    private readonly metrics: Metrics,
    @Inject(ENVIRONMENT) env: Environment,
  ) {
    this.gate = new BuildGate(
      env.POINT_IN_TIME_BUILDS,
      env.POINT_IN_TIME_QUEUE,
      (running, queued) => {
        metrics.pointInTimeBuilds.set({ state: 'running' }, running);
        metrics.pointInTimeBuilds.set({ state: 'queued' }, queued);
      },
    );
  }

  async asOf(ladder: LadderConfig, at: Date): Promise<BoardAsOf> {
    const cut = await this.reader.cut(ladder.id, at);
    if (cut === null) return { cut, board: this.emptyBoard(ladder) };
    const key = `${ladder.id}\n${cut.id}`;
    const cached = this.boards.get(key);
    if (cached) {
      this.metrics.pointInTimeBoards.inc({ result: 'hit' });
      return { cut, board: cached };
    }
    let reading = this.reading.get(key);
    if (reading === undefined) {
      this.metrics.pointInTimeBoards.inc({ result: 'miss' });
      reading = this.read(ladder, cut.id).finally(() => this.reading.delete(key));
      this.reading.set(key, reading);
      const board = await reading;
      this.boards.set(key, board);
      return { cut, board };
    }
    this.metrics.pointInTimeBoards.inc({ result: 'hit' });
    return { cut, board: await reading };
  }

  /** Whether the player has ever played on the ladder (tells "not yet" from "never"). */
  known(ladder: LadderConfig, player: string): Promise<boolean> {
    return this.reader.known(ladder.id, player);
  }

  private async read(ladder: LadderConfig, cut: number): Promise<PointInTimeBoard> {
    try {
      return await this.gate.run(async () => {
        const end = this.metrics.pointInTimeBuild.startTimer({ ladder: ladder.id });
        const board = new PointInTimeBoard(await this.reader.standings(ladder.id, cut), ladder);
        end();
        return board;
      });
    } catch (error) {
      if (error instanceof BuildsBusyError) this.metrics.pointInTimeRefused.inc();
      throw error;
    }
  }

  private emptyBoard(ladder: LadderConfig): PointInTimeBoard {
    let board = this.empty.get(ladder);
    if (!board) this.empty.set(ladder, (board = new PointInTimeBoard([], ladder)));
    return board;
  }
}
