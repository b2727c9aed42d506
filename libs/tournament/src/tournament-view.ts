import type { LadderEvent } from '@ranking/contracts';
import { type Fate, fateOf } from './advancement.js';
import { type FinishedMatch, rankGroup, type StandingRow } from './group-standings.js';
import { type MatchStatus, scoreMatch, type UncountedReason } from './match-score.js';
import { foldReportedGames, type IgnoredEvent, type ReportedGame } from './reported-games.js';
import type { TournamentConfig } from './tournament-config.js';

export interface GameView {
  readonly gameId: string;
  readonly eventId: string;
  readonly finishedAt: string;
  readonly winner: string | null;
  readonly noShow: boolean;
  /** Counted in the score, or why not. */
  readonly counted: boolean;
  readonly note: UncountedReason | 'void' | null;
}

export interface MatchView {
  /** The referee's label from the match's first game; null while nothing was reported. */
  readonly id: string | null;
  readonly players: readonly [string, string];
  readonly status: MatchStatus;
  /** Game wins of players[0] and players[1]. */
  readonly score: readonly [number, number];
  readonly winner: string | null;
  readonly draw: boolean;
  readonly noShow: string | null;
  readonly games: readonly GameView[];
}

export interface StandingView extends StandingRow {
  readonly fate: Fate;
}

export interface GroupView {
  readonly id: string;
  readonly ladder: string;
  readonly players: readonly string[];
  readonly complete: boolean;
  readonly standings: readonly StandingView[];
  readonly matches: readonly MatchView[];
}

export interface PlayoffView extends Omit<GroupView, 'players'> {
  readonly places: number;
  /** The entrants once every group has placed its next player; null until then. */
  readonly players: readonly string[] | null;
}

export interface Qualifier {
  readonly player: string;
  readonly group: string;
  readonly position: number;
}

export interface TournamentView {
  readonly id: string;
  readonly name: string;
  readonly ladder: string;
  readonly complete: boolean;
  readonly groups: readonly GroupView[];
  readonly playoff: PlayoffView | null;
  readonly advancement: {
    readonly perGroup: number;
    /** Who is through, from the groups and from the play-off group, in that order. */
    readonly qualified: readonly Qualifier[];
    readonly toPlayoff: readonly Qualifier[];
    /** Players whose fate waits on a play-off the rules cannot replace. */
    readonly playoffNeeded: readonly Qualifier[];
  };
  readonly ignored: readonly IgnoredEvent[];
}

/** A short entry for a list of tournaments. */
export interface TournamentSummary {
  readonly id: string;
  readonly name: string;
  readonly ladder: string;
  readonly groups: number;
  readonly players: number;
}

export const summarizeTournament = (config: TournamentConfig): TournamentSummary => ({
  id: config.id,
  name: config.name,
  ladder: config.ladder,
  groups: config.groups.length,
  players: config.groups.reduce((n, g) => n + g.players.length, 0),
});

const pairKey = (a: string, b: string): string => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

/** Every pair of a round robin, in the order the players are listed. */
function pairings(players: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  players.forEach((a, i) => players.slice(i + 1).forEach((b) => pairs.push([a, b])));
  return pairs;
}

function matchView(players: readonly [string, string], games: readonly ReportedGame[]): MatchView {
  const live = games.filter((g) => !g.void);
  const score = scoreMatch(players, live);
  const why = new Map(score.uncounted.map((u) => [u.gameId, u.why]));
  return {
    id: games[0]?.match ?? null,
    players,
    status: score.status,
    score: score.wins,
    winner: score.winner,
    draw: score.status === 'finished' && score.winner === null,
    noShow: score.noShow,
    games: games.map((g) => ({
      gameId: g.gameId,
      eventId: g.eventId,
      finishedAt: g.finishedAt,
      winner: g.winner,
      noShow: g.noShow,
      counted: !g.void && !why.has(g.gameId),
      note: g.void ? 'void' : (why.get(g.gameId) ?? null),
    })),
  };
}

/** A round robin among `players`: its matches (every pair, played or not) and its table. */
function roundRobin(
  players: readonly string[],
  games: readonly ReportedGame[],
): { matches: MatchView[]; standings: StandingRow[]; complete: boolean; strays: ReportedGame[] } {
  const byPair = new Map<string, ReportedGame[]>();
  for (const g of games) {
    const key = pairKey(g.players[0], g.players[1]);
    byPair.set(key, [...(byPair.get(key) ?? []), g]);
  }
  const matches = pairings(players).map((pair) =>
    matchView(pair, byPair.get(pairKey(...pair)) ?? []),
  );
  const inGroup = new Set(pairings(players).map((pair) => pairKey(...pair)));
  const strays = games.filter((g) => !inGroup.has(pairKey(g.players[0], g.players[1])));
  const finished: FinishedMatch[] = matches
    .filter((m) => m.status === 'finished')
    .map((m) => ({ players: m.players, wins: m.score }));
  return {
    matches,
    standings: rankGroup(players, finished),
    complete: matches.every((m) => m.status === 'finished'),
    strays,
  };
}

/**
 * The whole tournament from its configuration and its log (events in log order; other events
 * pass by): groups with standings and matches, the play-off group, advancement, and the
 * events that name the tournament but cannot count. JSON-ready; pure.
 */
export function tournamentView(
  config: TournamentConfig,
  events: Iterable<LadderEvent>,
): TournamentView {
  const reported = foldReportedGames(config, events);
  const ignored: IgnoredEvent[] = [...reported.ignored];
  const { perGroup, playoff } = config.advancement;
  const toPlayoffCount = playoff === null ? 0 : 1;

  const groups: GroupView[] = config.groups.map((group) => {
    const games = reported.games.filter((g) => g.group === group.id);
    const rr = roundRobin(group.players, games);
    return {
      id: group.id,
      ladder: group.ladder,
      players: group.players,
      complete: rr.complete,
      standings: rr.standings.map((row) => ({
        ...row,
        fate: fateOf(row, rr.complete, perGroup, toPlayoffCount),
      })),
      matches: rr.matches,
    };
  });

  const pick = (fate: Fate, group: GroupView): Qualifier[] =>
    group.standings
      .filter((r) => r.fate === fate)
      .map((r) => ({ player: r.player, group: group.id, position: r.position }));
  const qualified = groups.flatMap((g) => pick('qualified', g));
  const toPlayoff = groups.flatMap((g) => pick('playoff', g));
  const playoffNeeded = groups.flatMap((g) => pick('playoff-needed', g));

  let playoffView: PlayoffView | null = null;
  if (playoff !== null) {
    const games = reported.games.filter((g) => g.group === playoff.group);
    // The entrants are known once each group has placed exactly one player in the play-off.
    const decided =
      groups.every((g) => g.complete) && toPlayoff.length === groups.length * toPlayoffCount;
    const entrants = decided ? toPlayoff.map((q) => q.player) : null;
    const rr = roundRobin(entrants ?? [], games);
    if (entrants !== null) {
      for (const g of rr.strays)
        ignored.push({ eventId: g.eventId, gameId: g.gameId, reason: 'not-in-group' });
    }
    const complete = entrants !== null && rr.complete;
    const standings = rr.standings.map((row) => ({
      ...row,
      fate: fateOf(row, complete, playoff.places, 0),
    }));
    playoffView = {
      id: playoff.group,
      ladder: playoff.ladder,
      places: playoff.places,
      players: entrants,
      complete,
      standings,
      // Before the entrants are known, show what has been reported, pair by pair.
      matches:
        entrants !== null
          ? rr.matches
          : [...new Set(games.map((g) => pairKey(g.players[0], g.players[1])))].map((key) => {
              const pairGames = games.filter((g) => pairKey(g.players[0], g.players[1]) === key);
              return matchView(pairGames[0]!.players, pairGames);
            }),
    };
    for (const row of standings) {
      const q = { player: row.player, group: playoff.group, position: row.position };
      if (row.fate === 'qualified') qualified.push(q);
      if (row.fate === 'playoff-needed') playoffNeeded.push(q);
    }
  }

  return {
    id: config.id,
    name: config.name,
    ladder: config.ladder,
    complete: groups.every((g) => g.complete) && (playoffView?.complete ?? true),
    groups,
    playoff: playoffView,
    advancement: { perGroup, qualified, toPlayoff, playoffNeeded },
    ignored,
  };
}
