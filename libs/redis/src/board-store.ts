import { randomBytes } from 'node:crypto';
import { FlatReply } from './flat-reply.js';
import { RELEASE_LUA } from './scripts/release.js';
import type { RedisClient } from './redis-client.js';
import { HEAD_LUA } from './scripts/head.js';
import { MEMBER_LUA } from './scripts/member.js';
import { PAGE_LUA } from './scripts/page.js';
import { SEQUENCED_LUA } from './scripts/sequenced.js';
import { SWITCH_LUA } from './scripts/switch.js';

/** One line of a board: the member, its sort score (lower first) and an opaque encoded row. */
export interface BoardEntry {
  readonly member: string;
  /** Sort key: boards are read in ascending score, ties in member byte order. */
  readonly score: number;
  /** Whether the member is ranked (in the sorted set) or only looked up (hash only). */
  readonly ranked: boolean;
  readonly data: string;
}

/**
 * One member's change on a board kept in message order: its new entry (with `keepAfter`, the
 * row's leading fields only: the stored row's fields after them stay), or its removal.
 */
export type MemberChange =
  | (BoardEntry & { readonly keepAfter?: number })
  | { readonly member: string; readonly removed: true };

/**
 * A message for a board kept in order (the live board): its seq, the seq of the message before
 * it, and the members it changes; null when a board cannot apply it alone and must be read again.
 */
export interface SequencedChange {
  readonly seq: number;
  readonly previousSeq: number;
  readonly members: readonly MemberChange[] | null;
}

/**
 * What `applyInOrder` did: every message applied or passed over as a duplicate (`done`); no such
 * board; or stopped at the message `index` (those before it done), which follows a lost message
 * (`gap`) or asks for the board to be read again (`reload`).
 */
export type SequencedOutcome =
  | { readonly kind: 'missing' }
  | {
      readonly kind: 'done' | 'gap' | 'reload';
      readonly index: number;
      readonly applied: number;
      readonly duplicates: number;
    };

/** The meta field of a board kept in message order: the seq of the last message in it. */
export const APPLIED_SEQ = 'seq';

/** Messages and member changes per script run, so one run never holds Redis for long. */
const SEQUENCED_MESSAGES = 1_000;
const SEQUENCED_MEMBERS = 5_000;

/** A slice of a board as read in one atomic script: ranks are left to the caller. */
export interface BoardSlice {
  readonly meta: Record<string, string>;
  /** Index (0-based) of the first item in the board's order. */
  readonly start: number;
  /** 1 + members with a strictly lower score than the first item (competition rank). */
  readonly firstRank: number;
  readonly total: number;
  readonly items: readonly { member: string; score: string; data: string | null }[];
}

/** Which board a read resolves to, and its version. */
export interface BoardHead {
  readonly name: string;
  readonly version: string;
}

export interface PlayerSlices {
  readonly data: string | null;
  /** Null when the board does not exist. */
  readonly board: BoardSlice | null;
  /** The player's index on the board (null when not ranked on it). */
  readonly index: number | null;
}

/** The board store is rebuilding or unreachable: a retriable condition callers answer with 503. */
export class BoardsUnavailableError extends Error {
  override readonly name = 'BoardsUnavailableError';
  readonly retriable = true;
}

// Reads are Lua scripts (one module each in ./scripts): atomic in Redis, so a reader sees one
// whole version of a board or none. Page and member reads answer one flat string (see
// flat-reply.ts): 'ok', then their fields.

/** The scripts as commands: ioredis sends EVALSHA, so Redis neither re-hashes nor re-parses them. */
interface BoardScripts {
  lbPageBuffer(numKeys: number, ...args: (string | number)[]): Promise<Buffer | null>;
  lbMemberBuffer(numKeys: number, ...args: (string | number)[]): Promise<Buffer | null>;
  lbSwitch(numKeys: number, ...args: (string | number)[]): Promise<unknown>;
  lbSequenced(numKeys: number, ...args: (string | number)[]): Promise<unknown>;
  lbHead(numKeys: number, ...args: (string | number)[]): Promise<unknown>;
}

const SCRIPTS: Record<string, string> = {
  lbPage: PAGE_LUA,
  lbMember: MEMBER_LUA,
  lbSwitch: SWITCH_LUA,
  lbSequenced: SEQUENCED_LUA,
  lbHead: HEAD_LUA,
};

/** The client with the board scripts defined on it (once per client). */
function scripted(redis: RedisClient): BoardScripts {
  const commands = redis as unknown as Record<string, unknown>;
  for (const [name, lua] of Object.entries(SCRIPTS))
    if (commands[name] === undefined) redis.defineCommand(name, { lua });
  return redis as unknown as BoardScripts;
}

/** Reads a slice written by SLICE_LUA's `slice`. */
const readSlice = (reply: FlatReply): BoardSlice => {
  const meta: Record<string, string> = {};
  for (let pairs = reply.integer(); pairs > 0; pairs--) meta[reply.text()] = reply.text();
  const start = reply.integer();
  const firstRank = reply.integer();
  const total = reply.integer();
  const items: { member: string; score: string; data: string | null }[] = [];
  for (let n = reply.integer(); n > 0; n--)
    items.push({ member: reply.text(), score: reply.text(), data: reply.optionalText() });
  return { meta, start, firstRank, total, items };
};

/** A flat reply after its status: null for Redis's nil, unavailable while the boards are rebuilt. */
const opened = (raw: Buffer | null): FlatReply | null => {
  if (raw === null) return null;
  const reply = new FlatReply(raw);
  const status = reply.text();
  if (status === 'unready') throw new BoardsUnavailableError('the boards are being rebuilt');
  if (status !== 'ok') throw new Error(`board store reply: unexpected status "${status}"`);
  return reply;
};

/** A board being built under keys no reader looks at; `commit` makes it the board in one step. */
export class BoardBuild {
  private count = 0;
  constructor(
    private readonly redis: RedisClient,
    private readonly store: BoardStore,
    private readonly ladder: string,
    private readonly board: string,
    readonly version: string,
  ) {}

  async add(entries: readonly BoardEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const base = this.store.boardKey(this.ladder, this.board);
    const z = `${base}:${this.version}:z`;
    const h = `${base}:${this.version}:h`;
    const zargs: (string | number)[] = [];
    const hargs: string[] = [];
    for (const e of entries) {
      if (e.ranked) zargs.push(e.score, e.member);
      hargs.push(e.member, e.data);
    }
    const pipe = this.redis.pipeline();
    if (zargs.length > 0) pipe.zadd(z, ...zargs);
    pipe.hset(h, ...hargs);
    const results = await pipe.exec();
    for (const [error] of results ?? []) if (error) throw error;
    this.count += zargs.length / 2;
  }

  /** Switches readers to this version and drops the previous one (UNLINK: freed off the main thread). */
  async commit(meta: Record<string, string | number>, dayScore: number | null): Promise<void> {
    const base = this.store.boardKey(this.ladder, this.board);
    const fields = Object.entries({ ...meta, version: this.version, count: this.count }).flatMap(
      ([k, v]) => [k, String(v)],
    );
    const old = (await scripted(this.redis).lbSwitch(
      2,
      base,
      this.store.daysKey(this.ladder),
      this.store.switchesChannel,
      this.board,
      dayScore === null ? '' : String(dayScore),
      this.ladder,
      ...fields,
    )) as string | null;
    if (old) await this.redis.unlink(`${base}:${old}:z`, `${base}:${old}:h`);
  }

  async abort(): Promise<void> {
    const base = this.store.boardKey(this.ladder, this.board);
    await this.redis.unlink(`${base}:${this.version}:z`, `${base}:${this.version}:h`);
  }
}

/**
 * Leaderboards in Redis. Each board (a ladder's live board or one daily board) is a meta hash
 * naming a version, plus that version's sorted set (ranked members by score) and hash (rows of
 * every member). Builds write a new version and switch the meta in one script, so readers
 * never see a half-built board. A ladder's `ready` marker tells that its boards were loaded:
 * when Redis (or the cluster node holding the ladder) loses its data the marker goes with it,
 * and readers get BoardsUnavailableError until a rebuild sets it again.
 *
 * Key layout: `<prefix>lb:{<ladder>}:board:<board>` (meta), `…:board:<board>:<version>:z` and
 * `…:h`, `<prefix>lb:{<ladder>}:days` (the daily boards by day) and `<prefix>lb:{<ladder>}:ready`.
 * The braces are Redis Cluster's hash tag: every key of a ladder hashes to one slot, so each
 * script runs on one node. Ladder ids and the prefix never hold braces. No key is shared between
 * ladders; the switches channel is a channel, not a key. The layout before the hash tags
 * (`lb:<ladder>:…`, one `lb:ready`) is never read: after an upgrade the ladders' markers are
 * missing and the keeper rebuilds every board under the new keys.
 */
export class BoardStore {
  private readonly scripts: BoardScripts;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {
    this.scripts = scripted(redis);
  }

  /** The start of every key of a ladder: its hash tag puts them all in one cluster slot. */
  private ladderKey(ladder: string): string {
    return `${this.prefix}lb:{${ladder}}`;
  }

  boardKey(ladder: string, board: string): string {
    return `${this.ladderKey(ladder)}:board:${board}`;
  }

  daysKey(ladder: string): string {
    return `${this.ladderKey(ladder)}:days`;
  }

  /** Where switches and dropped boards are announced: the message is the ladder. */
  get switchesChannel(): string {
    return `${this.prefix}lb:switches`;
  }

  private readyKey(ladder: string): string {
    return `${this.ladderKey(ladder)}:ready`;
  }

  /** Commands fail fast while disconnected rather than waiting for a reconnect. */
  assertConnected(): void {
    if (this.redis.status !== 'ready')
      throw new BoardsUnavailableError(`Redis is ${this.redis.status}`);
  }

  /** The ladders whose boards are not loaded: never built, or lost with their Redis node. */
  async unready(ladders: readonly string[]): Promise<string[]> {
    this.assertConnected();
    // One command per ladder: in a cluster each marker may live on another node.
    const found = await Promise.all(ladders.map((l) => this.redis.exists(this.readyKey(l))));
    return ladders.filter((_, i) => found[i] !== 1);
  }

  /** Whether every one of these ladders has its boards loaded. */
  async isReady(ladders: readonly string[]): Promise<boolean> {
    return (await this.unready(ladders)).length === 0;
  }

  /** A ladder's boards are loaded (after its rebuild). */
  async markReady(ladder: string): Promise<void> {
    await this.redis.set(this.readyKey(ladder), new Date().toISOString());
  }

  /**
   * Claims a ladder's rebuild for `owner` for `ms` milliseconds: with several instances on one
   * Redis, the one that claims it rebuilds and the others wait for its ready marker. The claim
   * expires, so an instance that dies mid-rebuild holds it up for `ms` at most.
   */
  async claimRebuild(ladder: string, owner: string, ms: number): Promise<boolean> {
    return (await this.redis.set(this.rebuildKey(ladder), owner, 'PX', ms, 'NX')) === 'OK';
  }

  /** Gives up a claim of `owner` (done, or failed: another instance may try). */
  async releaseRebuild(ladder: string, owner: string): Promise<void> {
    await this.redis.eval(RELEASE_LUA, 1, this.rebuildKey(ladder), owner);
  }

  private rebuildKey(ladder: string): string {
    return `${this.ladderKey(ladder)}:rebuilding`;
  }

  async ping(): Promise<boolean> {
    this.assertConnected();
    return (await this.redis.ping()) === 'PONG';
  }

  build(ladder: string, board: string): BoardBuild {
    return new BoardBuild(this.redis, this, ladder, board, randomBytes(6).toString('hex'));
  }

  /**
   * A page in board order, after the cursor's member (or at its score when it left the board),
   * or without a cursor from the 0-based `position`. `board` null means the newest daily board;
   * the slice's meta `name` tells which it was.
   */
  async page(
    ladder: string,
    board: string | null,
    after: { member: string; score: string } | null,
    limit: number,
    position = 0,
  ): Promise<BoardSlice | null> {
    this.assertConnected();
    const reply = opened(
      await this.scripts.lbPageBuffer(
        3,
        this.readyKey(ladder),
        this.boardKey(ladder, ''),
        this.daysKey(ladder),
        after?.member ?? '',
        after?.score ?? '',
        limit,
        board ?? '',
        position,
      ),
    );
    return reply === null ? null : readSlice(reply);
  }

  /**
   * The name and version a read of `board` (null: the newest daily board) would see now, or null
   * when there is no such board. A version's daily board never changes, so its pages may be cached.
   */
  async head(ladder: string, board: string | null): Promise<BoardHead | null> {
    this.assertConnected();
    const raw = (await this.scripts.lbHead(
      3,
      this.readyKey(ladder),
      this.boardKey(ladder, ''),
      this.daysKey(ladder),
      board ?? '',
    )) as [string, string] | 'unready' | null;
    if (raw === 'unready') throw new BoardsUnavailableError('the boards are being rebuilt');
    return raw === null ? null : { name: raw[0], version: raw[1] };
  }

  /** A member's row, index and neighbours on each board (null: the newest daily), in one atomic script. */
  async member(
    ladder: string,
    boards: readonly (string | null)[],
    member: string,
    around: number,
  ): Promise<PlayerSlices[]> {
    this.assertConnected();
    const reply = opened(
      await this.scripts.lbMemberBuffer(
        3,
        this.readyKey(ladder),
        this.boardKey(ladder, ''),
        this.daysKey(ladder),
        member,
        around,
        ...boards.map((b) => b ?? ''),
      ),
    );
    if (reply === null) throw new Error('board store reply: no answer to a member read');
    return boards.map(() => {
      if (reply.text() === '0') return { data: null, index: null, board: null };
      const index = reply.optionalInteger();
      const board = readSlice(reply);
      return { data: reply.optionalText(), index, board };
    });
  }

  async meta(ladder: string, board: string): Promise<Record<string, string> | null> {
    this.assertConnected();
    const meta = await this.redis.hgetall(this.boardKey(ladder, board));
    return Object.keys(meta).length === 0 ? null : meta;
  }

  /** Daily boards of a ladder, newest first. */
  async days(ladder: string): Promise<string[]> {
    this.assertConnected();
    return this.redis.zrevrange(this.daysKey(ladder), 0, -1);
  }

  /**
   * Applies messages to the current version of a board (the live board) in their order, each at
   * most once, against the board's `seq` (APPLIED_SEQ: the last message in it; a build sets it
   * to the position it read): a message at or below it is a duplicate; one whose previous
   * message lies above it follows a lost one (`gap`), and one without member changes asks for a
   * read of the whole board (`reload`): either stops the run there. A run of many messages is
   * split into scripts of bounded size; each moves rows and `seq` together.
   */
  async applyInOrder(
    ladder: string,
    board: string,
    changes: readonly SequencedChange[],
  ): Promise<SequencedOutcome> {
    this.assertConnected();
    let applied = 0;
    let duplicates = 0;
    for (let start = 0; start < changes.length;) {
      const args: (string | number)[] = [];
      let end = start;
      let members = 0;
      while (
        end < changes.length &&
        end - start < SEQUENCED_MESSAGES &&
        (end === start || members + (changes[end]!.members?.length ?? 0) <= SEQUENCED_MEMBERS)
      ) {
        const change = changes[end++]!;
        members += change.members?.length ?? 0;
        args.push(change.previousSeq, change.seq, change.members?.length ?? -1);
        for (const m of change.members ?? [])
          if ('removed' in m) args.push(m.member, '-', '', '', 0);
          else args.push(m.member, m.ranked ? '1' : '0', m.score, m.data, m.keepAfter ?? 0);
      }
      const [status, index, done, repeated] = (await this.scripts.lbSequenced(
        1,
        this.boardKey(ladder, board),
        new Date().toISOString(),
        end - start,
        ...args,
      )) as [string, number, number, number];
      applied += done;
      duplicates += repeated;
      if (status === 'missing') return { kind: 'missing' };
      if (status === 'gap' || status === 'reload')
        return { kind: status, index: start + index, applied, duplicates };
      if (status !== 'done') throw new Error(`board store reply: unexpected status "${status}"`);
      start = end;
    }
    return { kind: 'done', index: changes.length, applied, duplicates };
  }

  /** Drops daily boards whose day score is below `minDay` (older than the kept window). */
  async trimDays(ladder: string, minDay: number): Promise<string[]> {
    const old = await this.redis.zrangebyscore(this.daysKey(ladder), '-inf', `(${minDay}`);
    for (const board of old) {
      const base = this.boardKey(ladder, board);
      const version = await this.redis.hget(base, 'version');
      // Meta and index go together, so a reader sees the board whole or not at all.
      await this.redis.multi().del(base).zrem(this.daysKey(ladder), board).exec();
      if (version) await this.redis.unlink(`${base}:${version}:z`, `${base}:${version}:h`);
    }
    if (old.length > 0) await this.redis.publish(this.switchesChannel, ladder);
    return old;
  }
}
