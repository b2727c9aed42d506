import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { SkillReader } from '@ranking/persistence';
import { type LadderConfig, SKILL_PRIOR } from '@ranking/rating';
import { type BoardSlice, BoardStore, type PlayerSlices } from '@ranking/redis';
import { LIVE } from '../boards/board-builder.js';
import { publishedAt } from '../boards/board-dates.js';
import { BoardHeads } from '../boards/board-heads.js';
import { DailyPageCache } from '../boards/daily-page-cache.js';
import { hasBoard, rowJson, rowsJson, skillJson } from '../boards/board-row.js';
import { encodeCursor, type PageCursor } from '../boards/page-cursor.js';
import { rankSlice } from '../boards/ranked-page.js';
import { Metrics } from '../ops/metrics.js';
import { LADDERS } from '../tokens.js';
import { ladderName } from './ladder-names.js';

export interface BoardView {
  readonly view: 'daily' | 'live';
  readonly live: boolean;
  /** Daily boards: the board's date (its 06:00) and the day whose close it shows. */
  readonly date?: string;
  readonly closeKey?: string;
  readonly publishedAt?: string;
  /** Live board: when it last changed. */
  readonly updatedAt?: string;
  readonly total: number;
}

/** A stored daily board as the API names it: its date, its close, when it showed, its size. */
const storedBoard = (ladder: LadderConfig, date: string, meta: Record<string, string>) => ({
  date,
  closeKey: meta.asOf,
  publishedAt: publishedAt(date, ladder.timezone),
  players: Number(meta.count),
});

/** What the HTTP API answers, read from the boards in Redis. */
@Injectable()
export class LeaderboardQueries {
  constructor(
    @Inject(LADDERS) private readonly ladders: ReadonlyMap<string, LadderConfig>,
    private readonly store: BoardStore,
    private readonly heads: BoardHeads,
    private readonly cache: DailyPageCache,
    private readonly metrics: Metrics,
    private readonly skills: SkillReader,
  ) {}

  /** The ladder, or a 404 naming the known ones; `board` also requires that it has boards. */
  ladder(id: string, board = false): LadderConfig {
    const ladder = this.ladders.get(id);
    if (!ladder)
      throw new NotFoundException(
        `unknown ladder "${id}"; known ladders: ${[...this.ladders.keys()].join(', ')}`,
      );
    if (board && !hasBoard(ladder))
      throw new NotFoundException(
        `ladder "${id}" has no leaderboard (its players are never ranked)`,
      );
    return ladder;
  }

  async ladderList() {
    const out = [];
    for (const ladder of this.ladders.values()) {
      const board = hasBoard(ladder);
      const newest = board ? (await this.store.days(ladder.id))[0] : undefined;
      const meta = newest ? await this.store.meta(ladder.id, newest) : null;
      const live = board ? await this.store.meta(ladder.id, LIVE) : null;
      out.push({
        id: ladder.id,
        ...ladderName(ladder.id),
        ruleSet: ladder.ruleSet,
        timezone: ladder.timezone,
        rankedAfter: ladder.rankedAfter,
        hasLeaderboard: board,
        currentBoard: newest && meta ? storedBoard(ladder, newest, meta) : null,
        live: live
          ? { updatedAt: live.updatedAt ?? live.builtAt, players: Number(live.count) }
          : null,
      });
    }
    return { ladders: out };
  }

  /** The daily boards the store keeps for a ladder, newest first. */
  async boards(ladder: LadderConfig) {
    const days = await this.store.days(ladder.id);
    const metas = await Promise.all(days.map((day) => this.store.meta(ladder.id, day)));
    // A board trimmed between the two reads is no longer there to show.
    const boards = days.flatMap((date, i) => {
      const meta = metas[i];
      return meta ? [storedBoard(ladder, date, meta)] : [];
    });
    return { ladder: ladder.id, boards };
  }

  /** The board for a request: the live board, the given date, or null for the newest daily board. */
  boardName(view: 'daily' | 'live', date?: string): string | null {
    return view === 'live' ? LIVE : (date ?? null);
  }

  /**
   * A page of a board as the API's JSON bytes. Daily pages come from the cache when the board's
   * version is the one cached; the version is known in memory while switches are announced.
   */
  async leaderboard(
    ladder: LadderConfig,
    wanted: string | null,
    cursor: PageCursor | null,
    limit: number,
    position = 0,
  ): Promise<Buffer> {
    const head = wanted === LIVE ? null : await this.heads.head(ladder.id, wanted);
    if (wanted !== LIVE && head === null) throw await this.noBoard(ladder, wanted);
    const key = head && DailyPageCache.key(ladder.id, head, cursor, limit, position);
    const cached = key === null ? undefined : this.cache.get(key);
    if (cached) {
      this.metrics.pageCache.inc({ result: 'hit' });
      return cached;
    }
    if (key !== null) this.metrics.pageCache.inc({ result: 'miss' });
    const slice = await this.store.page(ladder.id, head?.name ?? LIVE, cursor, limit, position);
    if (!slice) throw await this.noBoard(ladder, wanted);
    const body = Buffer.from(this.page(ladder, slice));
    // A switch between the two reads gives a newer version than the key names: not cached.
    if (key !== null && slice.meta.version === head?.version) this.cache.set(key, body);
    return body;
  }

  /** A page's answer as JSON text: the view, the ranked rows and the cursor to the next page. */
  private page(ladder: LadderConfig, slice: BoardSlice): string {
    const board = slice.meta.name ?? LIVE;
    const last = slice.items[slice.items.length - 1];
    const more = last !== undefined && slice.start + slice.items.length < slice.total;
    const head = JSON.stringify({ ladder: ladder.id, ...this.view(ladder, board, slice) });
    const next = more ? encodeCursor({ member: last.member, score: last.score }) : null;
    return `${head.slice(0, -1)},"from":${slice.start + 1},"rows":${rowsJson(rankSlice(slice), ladder)},"nextCursor":${JSON.stringify(next)}}`;
  }

  /**
   * A player's answer as JSON text: their row, whether ranked, their skill estimate, and per
   * board (live, newest daily) the view, their rank, their standing on a daily board and the
   * rows around them. The estimate comes with the live row; a row stored before rows carried
   * it (until the player's next game or the next rebuild) has it read by primary key.
   */
  async player(ladder: LadderConfig, player: string, around: number): Promise<string> {
    const [live, daily] = await this.store.member(ladder.id, [LIVE, null], player, around);
    if (!live?.data)
      throw new NotFoundException(`player "${player}" has no games on ladder "${ladder.id}"`);
    const side = (s: PlayerSlices | undefined): string => {
      if (!s?.board) return 'null';
      const board = s.board.meta.name ?? LIVE;
      const ranked = rankSlice(s.board);
      const rank =
        s.index === null ? null : (ranked.find((r) => r.member === player)?.rank ?? null);
      const head = JSON.stringify({ ...this.view(ladder, board, s.board), rank }).slice(0, -1);
      const standing =
        s.data && board !== LIVE ? `,"standing":${rowJson(null, player, s.data, ladder)}` : '';
      return `${head}${standing},"around":${rowsJson(ranked, ladder)}}`;
    };
    const row = rowJson(null, player, live.data, ladder).slice(1, -1);
    const skill = skillJson(live.data) ?? (await this.storedSkill(ladder, player));
    return `{"ladder":${JSON.stringify(ladder.id)},${row},"ranked":${live.index !== null},"skill":${skill},"live":${side(live)},"daily":${side(daily)}}`;
  }

  /** A player's estimate as PostgreSQL holds it, as JSON text (the prior before any). */
  private async storedSkill(ladder: LadderConfig, player: string): Promise<string> {
    const [stored] = await this.skills.players(ladder.id, [player]);
    const mu = stored?.mu ?? SKILL_PRIOR.mu;
    const sigma = stored?.sigma ?? SKILL_PRIOR.sigma;
    return `{"mu":${JSON.stringify(mu)},"sigma":${JSON.stringify(sigma)}}`;
  }

  private view(ladder: LadderConfig, board: string, slice: BoardSlice): BoardView {
    return board === LIVE
      ? {
          view: 'live',
          live: true,
          updatedAt: slice.meta.updatedAt ?? slice.meta.builtAt,
          total: slice.total,
        }
      : {
          view: 'daily',
          live: false,
          date: board,
          ...(slice.meta.asOf ? { closeKey: slice.meta.asOf } : {}),
          publishedAt: publishedAt(board, ladder.timezone),
          total: slice.total,
        };
  }

  private async noBoard(ladder: LadderConfig, board: string | null): Promise<NotFoundException> {
    if (board === null)
      return new NotFoundException(
        `ladder "${ladder.id}" has no daily board yet: the first appears at 06:00 (${ladder.timezone}) after its first daily close; try view=live`,
      );
    if (board === LIVE) return new NotFoundException(`ladder "${ladder.id}" has no live board yet`);
    const days = await this.store.days(ladder.id);
    return new NotFoundException(
      days.length === 0
        ? `ladder "${ladder.id}" has no daily board yet`
        : `no daily board of ${board} for ladder "${ladder.id}"; boards exist from ${days[days.length - 1]} to ${days[0]}`,
    );
  }
}
