import type { GameCorrected, GameFinished, LadderEvent } from '@ranking/contracts';
import {
  checkTournamentConfig,
  scoreMatch,
  type TournamentConfig,
  tournamentView,
} from '@ranking/tournament';
import { SeededRandom } from './seeded-random.js';

/** One game of a match from the first-named player's side: a (first wins), b (second wins), d (drawn). */
export type GameMark = 'a' | 'b' | 'd';

const MINUTE = 60_000;

/**
 * Writes a tournament's events as its referees would: games of a match one after another,
 * no-shows, adjudications. Ids are derived from the tournament, group, pair and game number,
 * so a script always writes the same log.
 */
export class TournamentScript {
  readonly events: LadderEvent[] = [];
  private clock: number;
  private readonly played = new Map<string, number>();
  private readonly games = new Map<string, GameFinished>();
  private corrections = 0;

  constructor(
    readonly config: TournamentConfig,
    start = '2026-03-21T18:00:00+08:00',
  ) {
    this.clock = Date.parse(start);
  }

  private ladderOf(group: string): string {
    const playoff = this.config.advancement.playoff;
    if (playoff !== null && playoff.group === group) return playoff.ladder;
    const found = this.config.groups.find((g) => g.id === group);
    if (!found) throw new Error(`tournament ${this.config.id} has no group ${group}`);
    return found.ladder;
  }

  private instant(): string {
    this.clock += 20 * MINUTE;
    return new Date(this.clock).toISOString().replace('Z', '+00:00');
  }

  private game(group: string, a: string, b: string, mark: GameMark, reason: string): GameFinished {
    const pair = `${group}-${a}-${b}`;
    const n = (this.played.get(pair) ?? 0) + 1;
    this.played.set(pair, n);
    const gameId = `${this.config.id}-${pair}-${n}`;
    const result = (won: boolean) => (mark === 'd' ? 'draw' : won ? 'win' : 'loss');
    const event: GameFinished = {
      id: `${gameId}:finished`,
      type: 'game.finished',
      ladder: this.ladderOf(group),
      gameId,
      finishedAt: this.instant(),
      moves: reason === 'no-show' ? 0 : 25 + ((n * 17 + a.length * 7) % 60),
      reason,
      context: {
        boardSize: 15,
        tournament: true,
        match: { tournament: this.config.id, group, match: pair },
      },
      players: [
        { id: a, result: result(mark === 'a'), side: 'black', first: true },
        { id: b, result: result(mark === 'b'), side: 'white', first: false },
      ],
    };
    this.games.set(gameId, event);
    this.events.push(event);
    return event;
  }

  /** The games of one match, in order: e.g. `aaba` (3:1 to a), `abab` (2:2), `aaab` (a 4th game after 3:0). */
  play(group: string, a: string, b: string, marks: string): GameFinished[] {
    return [...marks].map((mark) => {
      if (mark !== 'a' && mark !== 'b' && mark !== 'd') throw new Error(`bad game mark ${mark}`);
      return this.game(group, a, b, mark, 'five');
    });
  }

  /** The referee records that `absent` did not appear against `present` (a 0:3 loss). */
  noShow(group: string, present: string, absent: string): GameFinished {
    return this.game(group, present, absent, 'a', 'no-show');
  }

  /** An adjudication: the game's winner becomes `winner` (null: drawn). */
  correct(gameId: string, winner: string | null): GameCorrected {
    return this.adjudicate(gameId, (game) => ({
      players: game.players.map((p) => ({
        ...p,
        result: winner === null ? 'draw' : p.id === winner ? 'win' : 'loss',
      })),
      note: 'referee adjudication',
    }));
  }

  /** An adjudication that removes the game. */
  void(gameId: string): GameCorrected {
    return this.adjudicate(gameId, () => ({
      void: true,
      note: 'referee adjudication: game annulled',
    }));
  }

  /** Records a correction of a game already played, with what it changes. */
  private adjudicate(
    gameId: string,
    change: (game: GameFinished) => Pick<GameCorrected, 'players' | 'void' | 'note'>,
  ): GameCorrected {
    const game = this.games.get(gameId);
    if (!game) throw new Error(`no game ${gameId}`);
    const event: GameCorrected = {
      id: `${gameId}:corrected:${++this.corrections}`,
      type: 'game.corrected',
      ladder: game.ladder,
      gameId,
      correctedAt: this.instant(),
      ...change(game),
    };
    this.events.push(event);
    return event;
  }
}

export interface TournamentShape {
  readonly id: string;
  readonly ladder: string;
  readonly groups?: number;
  readonly playersPerGroup?: number;
  readonly perGroup?: number;
  /** Places of the third-place play-off group; 0 for none. */
  readonly playoffPlaces?: number;
}

/** A configuration like seed 000's (6 groups; top two through; 4 places from the third places). */
export function tournamentConfigFor(shape: TournamentShape): TournamentConfig {
  const groups = shape.groups ?? 6;
  const size = shape.playersPerGroup ?? 5;
  const places = shape.playoffPlaces ?? 4;
  return checkTournamentConfig({
    id: shape.id,
    ladder: shape.ladder,
    groups: Array.from({ length: groups }, (_, g) => ({
      id: `group-${g + 1}`,
      players: Array.from({ length: size }, (_, p) => `${shape.id}-p${g + 1}${p + 1}`),
    })),
    advancement: {
      perGroup: shape.perGroup ?? 2,
      playoff: places > 0 ? { group: 'playoff', places } : null,
    },
  });
}

/** Whether a match with these games (marks from the first player's side) is over. */
const decided = (marks: string): boolean =>
  scoreMatch(
    ['a', 'b'],
    [...marks].map((m, i) => ({
      gameId: String(i),
      winner: m === 'd' ? null : m,
      noShow: false,
    })),
  ).status === 'finished';

export interface TournamentGenerationOptions {
  readonly seed: number;
  readonly config: TournamentConfig;
  readonly start?: string;
  /** Share of matches decided by a no-show. */
  readonly noShowShare?: number;
  /** Share of decided matches where a game after the end is reported anyway. */
  readonly extraGameShare?: number;
  /** Share of games adjudicated afterwards (a result flipped or the game annulled). */
  readonly correctionShare?: number;
}

/**
 * A full tournament's log: every group's round robin, then the play-off group of the
 * entrants the standings name. Player strength decides games, so tables have a shape; a
 * group whose table leaves the play-off entrant undecided is replayed with fresh draws
 * (a generated tournament always reaches its play-off).
 */
export function generateTournament(options: TournamentGenerationOptions): LadderEvent[] {
  const { config } = options;
  const rnd = new SeededRandom(options.seed);
  const strength = new Map(
    config.groups.flatMap((g) => g.players).map((p) => [p, 0.5 + rnd.next()] as const),
  );
  const markFor = (a: string, b: string): GameMark => {
    if (rnd.chance(0.04)) return 'd';
    const sa = strength.get(a)!;
    return rnd.next() < sa / (sa + strength.get(b)!) ? 'a' : 'b';
  };
  const matchMarks = (a: string, b: string): string => {
    const marks: GameMark[] = [];
    let wa = 0;
    let wb = 0;
    while (wa < 3 && wb < 3 && marks.length < 4) {
      const mark = markFor(a, b);
      marks.push(mark);
      if (mark === 'a') wa++;
      if (mark === 'b') wb++;
    }
    if (rnd.chance(options.extraGameShare ?? 0.05)) marks.push(markFor(a, b));
    return marks.join('');
  };
  const roundRobin = (script: TournamentScript, group: string, players: readonly string[]) => {
    players.forEach((a, i) =>
      players.slice(i + 1).forEach((b) => {
        if (rnd.chance(options.noShowShare ?? 0.03)) {
          const [present, absent] = rnd.chance(0.5) ? [a, b] : [b, a];
          script.noShow(group, present, absent);
          return;
        }
        const marks = matchMarks(a, b);
        const games = script.play(group, a, b, marks);
        const first = games[0];
        if (first && rnd.chance(options.correctionShare ?? 0.02)) {
          // An adjudication of the first game; the players then play on until the match is decided.
          const voided = rnd.chance(0.5);
          if (voided) script.void(first.gameId);
          else script.correct(first.gameId, a);
          let live = (voided ? '' : 'a') + marks.slice(1);
          while (!decided(live)) {
            const mark = markFor(a, b);
            script.play(group, a, b, mark);
            live += mark;
          }
        }
      }),
    );
  };

  for (let attempt = 0; attempt < 50; attempt++) {
    const script = new TournamentScript(config, options.start);
    for (const group of config.groups) roundRobin(script, group.id, group.players);
    const playoff = config.advancement.playoff;
    if (playoff === null) return script.events;
    const entrants = tournamentView(config, script.events).playoff?.players;
    if (!entrants) continue; // a tie across a cut-off: draw the group stage again
    roundRobin(script, playoff.group, entrants);
    return script.events;
  }
  throw new Error(`tournament ${config.id}: no decided group stage in 50 attempts`);
}
