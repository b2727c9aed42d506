import {
  type GameCorrected,
  type GameFinished,
  type LadderEvent,
  NO_SHOW_REASON,
  type PlayerReport,
} from '@ranking/contracts';
import type { TournamentConfig } from './tournament-config.js';

/** Why an event that names this tournament does not count (listed, never thrown). */
export type IgnoreReason =
  'unknown-group' | 'wrong-ladder' | 'wrong-player-count' | 'not-in-group' | 'inconsistent-result';

export interface IgnoredEvent {
  readonly eventId: string;
  readonly gameId: string;
  readonly reason: IgnoreReason;
}

/** One game of the tournament as last adjudicated. */
export interface ReportedGame {
  readonly eventId: string;
  readonly gameId: string;
  readonly ladder: string;
  readonly group: string;
  /** The referee's label of the match (informational: a round robin's match is its pair). */
  readonly match: string;
  readonly players: readonly [string, string];
  readonly finishedAt: string;
  /** The game's winner; null for a drawn game. */
  readonly winner: string | null;
  /** A referee's no-show record: the loser did not appear (seed 000 rule 9: a 0:3 loss). */
  readonly noShow: boolean;
  /** Removed by a void correction (a later correction can bring it back). */
  readonly void: boolean;
}

export interface ReportedGames {
  /** Every game of the tournament, in log order (corrections applied in place). */
  readonly games: readonly ReportedGame[];
  readonly ignored: readonly IgnoredEvent[];
}

type Outcome = { ok: true; winner: string | null } | { ok: false };

/** Two players' results as a game outcome: one win and one loss, or two draws. */
function outcomeOf(players: readonly PlayerReport[]): Outcome {
  const [a, b] = players;
  if (!a || !b) return { ok: false };
  if (a.result === 'draw' && b.result === 'draw') return { ok: true, winner: null };
  if (a.result === 'win' && b.result === 'loss') return { ok: true, winner: a.id };
  if (a.result === 'loss' && b.result === 'win') return { ok: true, winner: b.id };
  return { ok: false };
}

const gameKey = (ladder: string, gameId: string): string => `${ladder}\u0000${gameId}`;

/**
 * Folds a log (in log order; it may hold other events, which pass by) into this tournament's
 * games. A game.finished belongs to the tournament when its context.match names it; a
 * game.corrected of such a game replaces its result, or removes it when void. Pure.
 */
export function foldReportedGames(
  config: TournamentConfig,
  events: Iterable<LadderEvent>,
): ReportedGames {
  const groupOf = new Map(config.groups.map((g) => [g.id, g]));
  const entrants = new Set(config.groups.flatMap((g) => g.players));
  const playoff = config.advancement.playoff;
  const games: ReportedGame[] = [];
  const latest = new Map<string, number>(); // ladder + gameId -> index in games
  const ignored: IgnoredEvent[] = [];
  const seenIds = new Set<string>();

  const finished = (event: GameFinished): void => {
    const ref = event.context?.match;
    if (!ref || ref.tournament !== config.id) return;
    const ignore = (reason: IgnoreReason): void => {
      ignored.push({ eventId: event.id, gameId: event.gameId, reason });
    };
    const group = groupOf.get(ref.group);
    const isPlayoff = playoff !== null && ref.group === playoff.group;
    if (!group && !isPlayoff) return ignore('unknown-group');
    if (event.ladder !== (group ? group.ladder : playoff!.ladder)) return ignore('wrong-ladder');
    const [a, b, ...more] = event.players;
    if (!a || !b || more.length > 0 || a.id === b.id) return ignore('wrong-player-count');
    // Play-off entrants are known only once the groups are decided: any tournament player may
    // play there as far as this fold is concerned; the standings check who the entrants are.
    const members = group ? new Set(group.players) : entrants;
    if (!members.has(a.id) || !members.has(b.id)) return ignore('not-in-group');
    const outcome = outcomeOf(event.players);
    const noShow = event.reason === NO_SHOW_REASON;
    if (!outcome.ok || (noShow && outcome.winner === null)) return ignore('inconsistent-result');
    latest.set(gameKey(event.ladder, event.gameId), games.length);
    games.push({
      eventId: event.id,
      gameId: event.gameId,
      ladder: event.ladder,
      group: ref.group,
      match: ref.match,
      players: [a.id, b.id],
      finishedAt: event.finishedAt,
      winner: outcome.winner,
      noShow,
      void: false,
    });
  };

  const corrected = (event: GameCorrected): void => {
    const index = latest.get(gameKey(event.ladder, event.gameId));
    if (index === undefined) return; // not a game of this tournament
    const game = games[index]!;
    if (event.void === true) {
      games[index] = { ...game, void: true };
      return;
    }
    // Corrected players replace the game's results, matched by id (RULES.md corrections).
    const players = event.players ?? [];
    const byId = new Map(players.map((p) => [p.id, p]));
    const replaced = game.players.map((id) => byId.get(id));
    const outcome =
      players.length === 2 && replaced.every((p) => p !== undefined)
        ? outcomeOf(replaced)
        : ({ ok: false } as const);
    if (!outcome.ok || (game.noShow && outcome.winner === null)) {
      ignored.push({ eventId: event.id, gameId: event.gameId, reason: 'inconsistent-result' });
      return;
    }
    games[index] = { ...game, winner: outcome.winner, void: false };
  };

  for (const event of events) {
    if (seenIds.has(event.id)) continue; // a repeated id is never applied twice
    seenIds.add(event.id);
    switch (event.type) {
      case 'game.finished':
        finished(event);
        break;
      case 'game.corrected':
        corrected(event);
        break;
      case 'period.closed':
      case 'player.penalized':
      // Standings are not changed by an annulment (RULES.md "Annulment").
      case 'player.annulled':
        break;
      default: {
        const unknown: never = event;
        throw new Error(`unknown event type ${JSON.stringify(unknown)}`);
      }
    }
  }
  return { games, ignored };
}
