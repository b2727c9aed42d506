import { loadEnvironment, loadLadders, loadTournaments } from '@ranking/config';
import { producerIdPrefix, producerTopic } from '@ranking/contracts';
import { generateEvents, generateTournament } from '@ranking/generator';
import { kafkaClient, kafkaConnection, topicNames } from '@ranking/kafka';
import type { LadderConfig } from '@ranking/rating';
import { Command, CommandRunner, Option } from 'nest-commander';
import { CommandLog } from '../command-log.js';
import { instantFlag } from '../instant-flag.js';
import { SIMULATOR_PRODUCER } from '../simulator-producer.js';

interface SimulateFlags {
  rate?: number;
  backfillDays?: number;
  seed?: number;
  players?: number;
  duration?: number;
  tournaments?: string;
  now?: number;
}

const DAY_MS = 86_400_000;
const TICK_MS = 100;
const BACKFILL_EVENTS_PER_DAY = 3_000;
/** The generator's referees report one event every 20 minutes. */
const TOURNAMENT_EVENT_MS = 20 * 60_000;
/** Tournament logs use a fixed seed: a rerun writes the same ids, which the store drops as duplicates. */
const TOURNAMENT_SEED = 2007;
/** A few no-shows, late games and adjudications, so the demo shows them. */
const TOURNAMENT_SHARES = { noShowShare: 0.08, extraGameShare: 0.1, correctionShare: 0.06 };

const log = new CommandLog('simulate', { prefix: '[simulate] ' });

const ladderOf = (line: string) => /"ladder":"([^"]+)"/.exec(line)?.[1] ?? 'unknown';

/**
 * `ranking simulate`: a live game feed for every ladder, as game servers would publish it.
 * First a backfill of past days (with their period closes, so the 06:00 boards exist at once),
 * then realistic games timed now, at --rate per second, until Ctrl-C or --duration.
 * With --tournaments FILE, each tournament of the file is played out first, ending before the
 * backfill starts, so its group tables are complete when the services come up.
 */
@Command({
  name: 'simulate',
  description: 'publish realistic games for every ladder, live, at --rate events per second',
})
export class SimulateCommand extends CommandRunner {
  async run(_args: string[], flags: SimulateFlags): Promise<void> {
    const env = loadEnvironment();
    const registry = loadLadders(env);
    const ladders = [...registry.values()];
    const tournaments = flags.tournaments ? tournamentsOf(flags.tournaments, registry) : [];
    const rate = flags.rate ?? 20;
    const seed = flags.seed ?? Date.now() % 1_000_000_000;
    const players = flags.players ?? 400;
    const backfillDays = flags.backfillDays ?? 3;
    // The past (tournaments, the backfill with its closes) is history an operator imports: it
    // goes onto the ladder log in its order. Live games come as a game server's do: to the
    // intake, which checks them and moves them on (bad ones come back on its rejection topic).
    // As the producer `simulator` (ADR 39): its own intake topic and id namespace; the ladder
    // log only where `ranking setup --with-simulator` granted its backfill.
    const history = topicNames(env.KAFKA_TOPIC_PREFIX).ladderEvents;
    const intake = producerTopic(SIMULATOR_PRODUCER, env.KAFKA_TOPIC_PREFIX);
    const producer = kafkaClient(kafkaConnection(env), 'ranking-simulate', env.LOG_LEVEL).producer({
      allowAutoTopicCreation: false,
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await producer.connect();
    let stopping = false;
    const stop = () => (stopping = true);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    const send = (topic: string, lines: string[]) =>
      producer.send({ topic, messages: lines.map((value) => ({ key: ladderOf(value), value })) });
    try {
      const now = flags.now ?? Date.now();
      const backfillStart = now - backfillDays * DAY_MS;
      for (const config of tournaments) {
        // Same seed, same log: measure it, then place it so that it ends an hour before the backfill.
        const length = generateTournament({
          seed: TOURNAMENT_SEED,
          config,
          ...TOURNAMENT_SHARES,
        }).length;
        const start = backfillStart - (length + 3) * TOURNAMENT_EVENT_MS;
        const events = generateTournament({
          seed: TOURNAMENT_SEED,
          config,
          ...TOURNAMENT_SHARES,
          start: new Date(start).toISOString(),
        });
        const lines = events.map((e) => JSON.stringify(e));
        for (let i = 0; i < lines.length; i += 500) await send(history, lines.slice(i, i + 500));
        log.info(`tournament ${config.id}: published ${lines.length} events`, {
          tournament: config.id,
          events: lines.length,
          topic: history,
        });
      }
      if (backfillDays > 0) {
        // Distinct seeds: event ids are the seed plus a serial, so phases never collide.
        const past = generateEvents({
          seed: seed * 2,
          events: backfillDays * BACKFILL_EVENTS_PER_DAY,
          start: new Date(backfillStart).toISOString(),
          days: backfillDays,
          closes: true,
          ladders,
          playersPerLadder: players,
          badShare: 0.005,
        });
        let batch: string[] = [];
        let backfilled = 0;
        for (const line of past) {
          if (stopping) break;
          batch.push(line);
          if (batch.length === 500) {
            await send(history, batch);
            backfilled += batch.length;
            batch = [];
          }
        }
        if (batch.length > 0) await send(history, batch);
        backfilled += batch.length;
        log.info(`backfilled ${backfillDays} days`, {
          days: backfillDays,
          events: backfilled,
          topic: history,
        });
      }
      // Live: a year of games spread so that their times follow the wall clock (from --now).
      // No closes: the maintenance service keeps the live clock.
      const yearEvents = rate * 365 * 86_400;
      const live = generateEvents({
        seed: seed * 2 + 1,
        events: yearEvents,
        start: new Date(now).toISOString(),
        days: 365,
        closes: false,
        ladders,
        playersPerLadder: players,
        badShare: 0.005,
        idPrefix: producerIdPrefix(SIMULATOR_PRODUCER),
      });
      const started = Date.now();
      const until = flags.duration ? started + flags.duration * 1000 : Infinity;
      let sent = 0;
      let lastReport = started;
      while (!stopping && Date.now() < until) {
        const due = Math.floor(((Date.now() - started) / 1000) * rate) - sent;
        const batch: string[] = [];
        for (let i = 0; i < due; i++) {
          const next = live.next();
          if (next.done) break;
          batch.push(next.value);
        }
        if (batch.length > 0) await send(intake, batch);
        sent += batch.length;
        if (Date.now() - lastReport > 10_000) {
          log.info(`${sent} live events published`, { events: sent, topic: intake });
          lastReport = Date.now();
        }
        await new Promise((resolve) => setTimeout(resolve, TICK_MS));
      }
      log.info(`stopped after ${sent} live events`, { events: sent, topic: intake });
    } finally {
      await producer.disconnect();
    }
  }

  @Option({ flags: '--rate <n>', description: 'live events per second (default 20)' })
  parseRate(value: string): number {
    return positive('--rate', value);
  }

  @Option({
    flags: '--backfill-days <d>',
    description: 'days of history (with closes) published first (default 3; 0 for none)',
  })
  parseBackfill(value: string): number {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > 60)
      throw new Error(`--backfill-days ${value}: must be a whole number from 0 to 60`);
    return n;
  }

  @Option({ flags: '--seed <n>', description: 'seed (default: from the clock)' })
  parseSeed(value: string): number {
    return positive('--seed', value);
  }

  @Option({ flags: '--players <n>', description: 'players per ladder (default 400)' })
  parsePlayers(value: string): number {
    return positive('--players', value);
  }

  @Option({
    flags: '--tournaments <file>',
    description:
      'a tournaments file (as RANKING_TOURNAMENTS_FILE); each tournament is played out before the backfill',
  })
  parseTournaments(value: string): string {
    return value;
  }

  @Option({
    flags: '--now <instant>',
    description:
      'the instant the backfill ends and the live games start (default: the clock), so that a run lays out the same games whenever it runs',
  })
  parseNow(value: string): number {
    return instantFlag('--now', value);
  }

  @Option({ flags: '--duration <s>', description: 'stop after this many seconds (default: never)' })
  parseDuration(value: string): number {
    return positive('--duration', value);
  }
}

/** The file's tournaments, checked as the leaderboard service checks them; errors name the flag. */
function tournamentsOf(file: string, ladders: ReadonlyMap<string, LadderConfig>) {
  try {
    return loadTournaments({ RANKING_TOURNAMENTS_FILE: file }, ladders);
  } catch (error) {
    throw new Error(
      (error as Error).message.replace(/^RANKING_TOURNAMENTS_FILE=/, '--tournaments '),
    );
  }
}

function positive(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${flag} ${value}: must be a whole number >= 1`);
  return n;
}
