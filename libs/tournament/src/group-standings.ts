// A group's table (seed 000 rules 4-5): match points (win 1, draw 0.5, loss 0), then small
// points (games won - games lost), then head to head among exactly the tied players; a tie
// none of these breaks needs a play-off and is never broken arbitrarily.

/** A finished match: its players and their game wins. */
export interface FinishedMatch {
  readonly players: readonly [string, string];
  readonly wins: readonly [number, number];
}

export interface StandingRow {
  readonly player: string;
  /** 1-based; players in an unbroken tie share the position of the best place they tie for. */
  readonly position: number;
  readonly played: number;
  readonly won: number;
  readonly drawn: number;
  readonly lost: number;
  readonly matchPoints: number;
  readonly gamesWon: number;
  readonly gamesLost: number;
  readonly smallPoints: number;
  /** The players this one is still tied with after every rule; empty when placed. */
  readonly tiedWith: readonly string[];
  readonly playoffNeeded: boolean;
}

interface Tally {
  played: number;
  won: number;
  drawn: number;
  lost: number;
  matchPoints: number;
  gamesWon: number;
  gamesLost: number;
}

const emptyTally = (): Tally => ({
  played: 0,
  won: 0,
  drawn: 0,
  lost: 0,
  matchPoints: 0,
  gamesWon: 0,
  gamesLost: 0,
});

/** Tallies the matches played among `players` only. */
function tally(players: readonly string[], matches: readonly FinishedMatch[]): Map<string, Tally> {
  const table = new Map(players.map((p) => [p, emptyTally()]));
  for (const match of matches) {
    const [a, b] = match.players;
    const ta = table.get(a);
    const tb = table.get(b);
    if (!ta || !tb) continue;
    const [wa, wb] = match.wins;
    for (const [t, mine, theirs] of [
      [ta, wa, wb],
      [tb, wb, wa],
    ] as const) {
      t.played += 1;
      t.gamesWon += mine;
      t.gamesLost += theirs;
      if (mine > theirs) {
        t.won += 1;
        t.matchPoints += 1;
      } else if (mine === theirs) {
        t.drawn += 1;
        t.matchPoints += 0.5;
      } else t.lost += 1;
    }
  }
  return table;
}

/** Splits players into runs of equal key, best first (key compared lexicographically, higher first). */
function splitBy(players: readonly string[], key: (p: string) => readonly number[]): string[][] {
  const compare = (x: string, y: string): number => {
    const kx = key(x);
    const ky = key(y);
    for (let i = 0; i < kx.length; i++) {
      const d = (ky[i] ?? 0) - (kx[i] ?? 0);
      if (d !== 0) return d;
    }
    return 0;
  };
  const sorted = [...players].sort((x, y) => compare(x, y) || (x < y ? -1 : x > y ? 1 : 0));
  const runs: string[][] = [];
  for (const p of sorted) {
    const run = runs[runs.length - 1];
    if (run && compare(run[0]!, p) === 0) run.push(p);
    else runs.push([p]);
  }
  return runs;
}

/**
 * Head to head among exactly `tied`: a mini-table of their mutual matches, by match points.
 * **Decision**: only match points count here (the seed's "相互战绩循环相等" treats A>B>C>A as
 * equal, which mutual game scores would not). A part that stays tied is re-run on its own
 * mutual matches; a tie the mini-table does not split at all is left for a play-off.
 */
function headToHead(tied: readonly string[], matches: readonly FinishedMatch[]): string[][] {
  const mini = tally(tied, matches);
  const runs = splitBy(tied, (p) => [mini.get(p)!.matchPoints]);
  if (runs.length === 1) return runs;
  return runs.flatMap((run) => (run.length === 1 ? [run] : headToHead(run, matches)));
}

/** The group table, best first; matches are the group's finished ones. */
export function rankGroup(
  players: readonly string[],
  matches: readonly FinishedMatch[],
): StandingRow[] {
  const table = tally(players, matches);
  const blocks = splitBy(players, (p) => {
    const t = table.get(p)!;
    return [t.matchPoints, t.gamesWon - t.gamesLost];
  }).flatMap((run) => (run.length === 1 ? [run] : headToHead(run, matches)));
  const rows: StandingRow[] = [];
  for (const block of blocks) {
    const position = rows.length + 1;
    for (const player of block) {
      const t = table.get(player)!;
      rows.push({
        player,
        position,
        ...t,
        smallPoints: t.gamesWon - t.gamesLost,
        tiedWith: block.filter((p) => p !== player),
        playoffNeeded: block.length > 1,
      });
    }
  }
  return rows;
}
