// A tournament as the operators configure it (RANKING_TOURNAMENTS_FILE): groups of players
// playing a round robin on a ladder, and who advances (seed 000, RULES.md "Tournament standings").

export interface GroupConfig {
  readonly id: string;
  /** The ladder the group's games are played on (seed 000: group 6 played without forbidden moves). */
  readonly ladder: string;
  readonly players: readonly string[];
}

/** The extra round robin of the groups' next-placed players, for the remaining places. */
export interface PlayoffConfig {
  readonly group: string;
  readonly ladder: string;
  /** How many of the play-off group go through (seed 000: 4 of the 6 third places). */
  readonly places: number;
}

export interface AdvancementConfig {
  /** Places per group that go straight through (seed 000: the top two). */
  readonly perGroup: number;
  readonly playoff: PlayoffConfig | null;
}

export interface TournamentConfig {
  readonly id: string;
  readonly name: string;
  /** The default ladder of the tournament's groups and play-off. */
  readonly ladder: string;
  readonly groups: readonly GroupConfig[];
  readonly advancement: AdvancementConfig;
}

const TOURNAMENT_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const LADDER_ID = TOURNAMENT_ID;
const DEFAULT_PER_GROUP = 2;
const DEFAULT_PLAYOFF_GROUP = 'playoff';

const isName = (v: unknown): v is string =>
  typeof v === 'string' && v.length >= 1 && v.length <= 128;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks one configured tournament and fills in the defaults; throws with a message that names
 * the tournament and the field. `ladders`, when given, are the ids a game may be played on.
 */
export function checkTournamentConfig(
  value: unknown,
  ladders?: ReadonlySet<string>,
): TournamentConfig {
  const c = isObject(value) ? value : null;
  const name = typeof c?.id === 'string' ? c.id : JSON.stringify(c?.id);
  const fail = (field: string, why: string): never => {
    throw new Error(`tournament ${name}: ${field} ${why}`);
  };
  if (c === null) throw new Error('a tournament must be an object');
  if (typeof c.id !== 'string' || !TOURNAMENT_ID.test(c.id))
    fail('id', 'must match ^[a-z0-9][a-z0-9-]{0,63}$');
  if (c.name !== undefined && !isName(c.name)) fail('name', 'must be a string of 1-128 chars');
  const ladder = (field: string, v: unknown): string => {
    if (typeof v !== 'string' || !LADDER_ID.test(v)) return fail(field, 'must be a ladder id');
    if (ladders && !ladders.has(v)) return fail(field, `"${v}" is not a configured ladder`);
    return v;
  };
  const defaultLadder = ladder('ladder', c.ladder);

  if (!Array.isArray(c.groups) || c.groups.length === 0)
    fail('groups', 'must be a non-empty array');
  const groups: GroupConfig[] = [];
  const seenPlayers = new Map<string, string>();
  for (const [i, g] of (c.groups as unknown[]).entries()) {
    const at = `groups[${i}]`;
    if (!isObject(g)) return fail(at, 'must be an object');
    if (!isName(g.id)) fail(`${at}.id`, 'must be a string of 1-128 chars');
    const id = g.id as string;
    if (groups.some((other) => other.id === id)) fail(`${at}.id`, `"${id}" is used twice`);
    if (!Array.isArray(g.players) || g.players.length < 2)
      fail(`${at}.players`, 'must list at least two players');
    for (const p of g.players as unknown[]) {
      if (!isName(p)) fail(`${at}.players`, 'must hold player ids (strings of 1-128 chars)');
      const other = seenPlayers.get(p as string);
      if (other !== undefined)
        fail(`${at}.players`, `"${p as string}" is already in group "${other}"`);
      seenPlayers.set(p as string, id);
    }
    groups.push({
      id,
      ladder: g.ladder === undefined ? defaultLadder : ladder(`${at}.ladder`, g.ladder),
      players: [...(g.players as string[])],
    });
  }

  const a = c.advancement === undefined ? {} : c.advancement;
  if (!isObject(a)) return fail('advancement', 'must be an object');
  const perGroup = a.perGroup === undefined ? DEFAULT_PER_GROUP : a.perGroup;
  const smallest = Math.min(...groups.map((g) => g.players.length));
  if (!Number.isInteger(perGroup) || (perGroup as number) < 1 || (perGroup as number) >= smallest)
    fail('advancement.perGroup', `must be a whole number from 1 to ${smallest - 1}`);
  let playoff: PlayoffConfig | null = null;
  if (a.playoff !== undefined && a.playoff !== null) {
    const p = a.playoff;
    if (!isObject(p)) return fail('advancement.playoff', 'must be an object or null');
    const group = p.group === undefined ? DEFAULT_PLAYOFF_GROUP : p.group;
    if (!isName(group)) fail('advancement.playoff.group', 'must be a string of 1-128 chars');
    if (groups.some((g) => g.id === group))
      fail('advancement.playoff.group', `"${group as string}" is already a group`);
    if ((perGroup as number) + 1 > smallest)
      fail('advancement.playoff', 'needs every group to have a player after the qualifiers');
    if (groups.length < 2) fail('advancement.playoff', 'needs at least two groups');
    if (
      !Number.isInteger(p.places) ||
      (p.places as number) < 1 ||
      (p.places as number) >= groups.length
    )
      fail('advancement.playoff.places', `must be a whole number from 1 to ${groups.length - 1}`);
    playoff = {
      group: group as string,
      ladder:
        p.ladder === undefined ? defaultLadder : ladder('advancement.playoff.ladder', p.ladder),
      places: p.places as number,
    };
  }
  return {
    id: c.id as string,
    name: (c.name as string | undefined) ?? (c.id as string),
    ladder: defaultLadder,
    groups,
    advancement: { perGroup: perGroup as number, playoff },
  };
}

/** Checks a list of tournaments (ids unique). */
export function checkTournamentConfigs(
  values: readonly unknown[],
  ladders?: ReadonlySet<string>,
): TournamentConfig[] {
  const tournaments: TournamentConfig[] = [];
  for (const value of values) {
    const t = checkTournamentConfig(value, ladders);
    if (tournaments.some((other) => other.id === t.id))
      throw new Error(`tournament ${t.id}: id is used twice`);
    tournaments.push(t);
  }
  return tournaments;
}

/** Every ladder the tournament's games are played on (what the event store reader needs). */
export function tournamentLadders(config: TournamentConfig): string[] {
  const ladders = [config.ladder, ...config.groups.map((g) => g.ladder)];
  if (config.advancement.playoff) ladders.push(config.advancement.playoff.ladder);
  return [...new Set(ladders)].sort();
}
