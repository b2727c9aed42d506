import { loadEnvironment, loadLadders } from '@ranking/config';
import {
  createDataSource,
  GameRepository,
  LadderCounterRepository,
  PlayerRepository,
  PgLadderStore,
  type Sql,
  sqlOf,
} from '@ranking/persistence';
import {
  foldFromStore,
  type LadderConfig,
  type PlayerState,
  type SkillState,
  type StoreFold,
} from '@ranking/rating';
import { Command, CommandRunner, Option } from 'nest-commander';
import type { DataSource } from 'typeorm';
import { CommandLog } from '../command-log.js';
import { differingPlayers, playersChecksum } from '../player-checksum.js';
import { withOffThreadPayloads } from '../off-thread-payloads.js';
import { ProgressLadderStore } from '../store-progress.js';

/** The exit code when the live tables differ from the rebuild. */
export const MISMATCH_EXIT = 3;
/** Rows read or written per statement. */
const PAGE = 10_000;
/** Game records written per statement (into a ladder emptied in the same transaction). */
const WRITE_PAGE = 25_000;
/** Players a mismatch names (of those that differ). */
const NAMED = 10;

interface RebuildFlags {
  ladder?: string;
  swap?: boolean;
  fromStart?: boolean;
}

interface Refold extends StoreFold {
  readonly players: readonly PlayerState[];
  readonly seconds: number;
}

/** `ranking rebuild`: re-folds a ladder from the event store and checks (or replaces) its live tables. */
@Command({
  name: 'rebuild',
  description:
    're-fold a ladder from the event store (from its newest usable snapshot) and compare its ' +
    'players with the live tables (exit code 0: match, 3: MISMATCH); --swap replaces the live ' +
    'tables with the rebuilt ones',
})
export class RebuildCommand extends CommandRunner {
  async run(_args: string[], flags: RebuildFlags): Promise<void> {
    if (!flags.ladder) throw new Error('rebuild needs --ladder ID');
    const env = loadEnvironment();
    const ladders = loadLadders(env);
    const ladder = ladders.get(flags.ladder);
    if (!ladder) throw new Error(`--ladder ${flags.ladder}: no such ladder`);
    const db = createDataSource(env.DATABASE_URL, 'ranking-rebuild');
    await db.initialize();
    try {
      // One snapshot: the log and the live rows describe the same moment.
      const { rebuilt, live } = await db.transaction('REPEATABLE READ', async (manager) => {
        const sql = sqlOf(manager);
        return {
          rebuilt: await refold(sql, ladders, ladder, flags.fromStart === true),
          live: await livePlayers(sql, ladder.id),
        };
      });
      const rate = Math.round(rebuilt.events / Math.max(rebuilt.seconds, 1e-9));
      const start =
        rebuilt.from === 0 ? "the log's start" : `the snapshot at position ${rebuilt.from}`;
      log.info(
        `ladder ${ladder.id}: re-folded ${rebuilt.events} events from ${start} to position ${rebuilt.position} in ${rebuilt.seconds.toFixed(2)} s (${rate} events/s)`,
        {
          ladder: ladder.id,
          from: rebuilt.from,
          position: rebuilt.position,
          events: rebuilt.events,
          seconds: Number(rebuilt.seconds.toFixed(3)),
          eventsPerSecond: rate,
        },
      );
      if (rebuilt.rejected > 0)
        log.warn(
          `warning: the re-fold rejected ${rebuilt.rejected} stored events (ladder configuration changed?)`,
          { ladder: ladder.id, rejected: rebuilt.rejected },
        );
      const skills = rebuilt.fold.skill!.players;
      const expected = playersChecksum(rebuilt.players, skills);
      const found = playersChecksum(live.players, live.skills);
      log.info(`rebuilt: ${rebuilt.players.length} players, sha256 ${expected}`, {
        ladder: ladder.id,
        table: 'rebuilt',
        players: rebuilt.players.length,
        sha256: expected,
      });
      log.info(`live:    ${live.players.length} players, sha256 ${found}`, {
        ladder: ladder.id,
        table: 'live',
        players: live.players.length,
        sha256: found,
      });
      if (expected === found) {
        log.info('match', { ladder: ladder.id, match: true });
        return;
      }
      const differ = differingPlayers(live, { players: rebuilt.players, skills });
      log.warn('MISMATCH', {
        ladder: ladder.id,
        match: false,
        differ: differ.length,
        differing: differ.slice(0, NAMED),
      });
      if (!flags.swap) {
        process.exitCode = MISMATCH_EXIT;
        return;
      }
      const swapStarted = process.hrtime.bigint();
      const swapped = await swap(db, ladder, rebuilt);
      const swapSeconds = Number(process.hrtime.bigint() - swapStarted) / 1e9;
      const now = playersChecksum(swapped.players.players, swapped.players.skills);
      log.info(
        `swapped: wrote ${swapped.players.players.length} players and ${swapped.games} game records in one transaction (${swapSeconds.toFixed(2)} s)`,
        {
          ladder: ladder.id,
          players: swapped.players.players.length,
          games: swapped.games,
          seconds: Number(swapSeconds.toFixed(3)),
        },
      );
      const fields = {
        ladder: ladder.id,
        table: 'live',
        players: swapped.players.players.length,
        sha256: now,
        match: now === expected,
      };
      const line = `live now: ${swapped.players.players.length} players, sha256 ${now}`;
      if (now === expected) log.info(`${line} match`, fields);
      else log.warn(`${line} MISMATCH`, fields);
      if (now !== expected) process.exitCode = MISMATCH_EXIT;
    } finally {
      await db.destroy();
    }
  }

  @Option({ flags: '--ladder <id>', description: 'the ladder to rebuild', required: true })
  parseLadder(value: string): string {
    return value;
  }

  @Option({
    flags: '--from-start',
    description:
      'fold the whole log from its first event, whatever snapshots the rating service wrote (a check that does not rely on them)',
  })
  parseFromStart(): boolean {
    return true;
  }

  @Option({
    flags: '--swap',
    description:
      'on a mismatch, replace the live players and game records with the rebuilt ones in one ' +
      'transaction (exit code 0 once they match)',
  })
  parseSwap(): boolean {
    return true;
  }
}

const log = new CommandLog('rebuild', { stream: 'stdout' });

/**
 * The ladder folded from its store as the rating service folds it (`foldFromStore`: from the
 * newest snapshot no later annulment reaches back past, or from the log's start), on the
 * caller's transaction. The fold rejects what it would reject: a changed ladder configuration
 * shows as rejected events (and makes its snapshots unusable: they record the configuration).
 */
async function refold(
  sql: Sql,
  ladders: ReadonlyMap<string, LadderConfig>,
  ladder: LadderConfig,
  fromStart: boolean,
): Promise<Refold> {
  const started = process.hrtime.bigint();
  const folded = await withOffThreadPayloads((parser) =>
    foldFromStore(
      new ProgressLadderStore(new PgLadderStore(sql, ladders, parser), 'rebuild'),
      ladder,
      { fromStart },
    ),
  );
  return {
    ...folded,
    players: [...folded.fold.players.values()],
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
  };
}

/** The ladder's live players and their skill estimates. */
interface LivePlayers {
  readonly players: PlayerState[];
  readonly skills: Map<string, SkillState>;
}

async function livePlayers(sql: Sql, ladder: string): Promise<LivePlayers> {
  const playerRepo = new PlayerRepository(sql);
  const live: LivePlayers = { players: [], skills: new Map() };
  for (let after: string | null = null; ;) {
    const page = await playerRepo.playersWithSkillAfter(ladder, after, PAGE);
    if (page.players.length === 0) return live;
    for (const p of page.players) live.players.push(p);
    for (const s of page.skills) live.skills.set(s.id, s);
    after = page.players[page.players.length - 1]!.id;
  }
}

/**
 * Replaces the ladder's players and game records with the rebuilt ones in one transaction,
 * holding the ladder's lock (the rating service's too), and refuses when the ladder took
 * events since the re-fold read the log. Returns the live players as written.
 */
async function swap(
  db: DataSource,
  ladder: LadderConfig,
  rebuilt: Refold,
): Promise<{ players: LivePlayers; games: number }> {
  return db.transaction(async (manager) => {
    const sql = sqlOf(manager);
    const counterRepo = new LadderCounterRepository(sql);
    const gameRepo = new GameRepository(sql);
    const playerRepo = new PlayerRepository(sql);
    const lastSeq = (await counterRepo.lockLadders([ladder.id])).get(ladder.id)?.lastSeq ?? 0;
    if (lastSeq !== rebuilt.position)
      throw new Error(
        `ladder ${ladder.id} took events during the rebuild (seq ${rebuilt.position} -> ${lastSeq}); nothing swapped, run it again`,
      );
    await gameRepo.deleteLadderState(ladder.id);
    const skills = rebuilt.fold.skill!.players;
    for (let i = 0; i < rebuilt.players.length; i += PAGE)
      await playerRepo.upsertPlayers(ladder.id, rebuilt.players.slice(i, i + PAGE), skills);
    const games = [...rebuilt.fold.gameRows()];
    for (let i = 0; i < games.length; i += WRITE_PAGE)
      await gameRepo.insertGames(ladder.id, games.slice(i, i + WRITE_PAGE));
    return { players: await livePlayers(sql, ladder.id), games: games.length };
  });
}
