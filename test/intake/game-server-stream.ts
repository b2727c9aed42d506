import { generateEvents } from '@ranking/generator';

/** A message as a game server publishes it to the intake. */
export interface ResultMessage {
  readonly key: string | null;
  readonly value: string;
}

/** A small seeded generator (mulberry32): the same seed, the same stream. */
export const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const ladderOf = (line: string) => /"ladder":"([^"]+)"/.exec(line)?.[1] ?? null;

/**
 * What a buggy or compromised game server (the producer `producer`) might add to an honest
 * stream: every privileged type, games under the system's reserved ids and games under another
 * producer's namespace (a copy of an honest game each).
 */
export function hostileEvents(
  honest: readonly string[],
  n: number,
  next: () => number,
  producer: string,
): string[] {
  const games = honest.filter((l) => {
    try {
      const e = JSON.parse(l) as { type?: unknown; players?: unknown; gameId?: unknown };
      return e.type === 'game.finished' && Array.isArray(e.players) && typeof e.gameId === 'string';
    } catch {
      return false;
    }
  });
  const at = '2026-11-29T14:00:00+08:00';
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const game = JSON.parse(games[Math.floor(next() * games.length)]!) as {
      id: string;
      ladder: string;
      gameId: string;
      players: { id: string }[];
    };
    const { ladder } = game;
    const player = game.players[0]!.id;
    const kinds = [
      {
        id: `${producer}:pen-${i}`,
        type: 'player.penalized',
        ladder,
        player,
        points: -5000,
        reason: 'disconnects',
        at,
      },
      {
        id: `${producer}:cor-${i}`,
        type: 'game.corrected',
        ladder,
        gameId: game.gameId,
        correctedAt: at,
        void: true,
        note: 'x',
      },
      {
        id: `${producer}:ann-${i}`,
        type: 'player.annulled',
        ladder,
        player,
        since: '2000-01-01T00:00:00Z',
        annulledAt: at,
        note: 'x',
      },
      {
        id: `${producer}:close-${i}`,
        type: 'period.closed',
        ladder,
        period: 'daily',
        key: '2099-12-30',
        start: '2099-12-30T06:00:00+08:00',
        end: '2099-12-31T06:00:00+08:00',
      },
      { ...game, id: `period.closed:${ladder}:weekly:2099-W01`, gameId: `${game.gameId}-r${i}` },
      { ...game, id: `player.penalized:${ladder}:${player}:${i}`, gameId: `${game.gameId}-p${i}` },
      { ...game, id: `annulment:${ladder}:${i}`, gameId: `${game.gameId}-a${i}` },
      { ...game, id: `${producer}x:g-${i}`, gameId: `${game.gameId}-n${i}` },
    ];
    out.push(JSON.stringify(kinds[i % kinds.length]));
  }
  return out;
}

/**
 * A game server's stream of `events` games (2% bad, as the generator makes them) in the
 * producer's namespace, with `hostile` privileged events, reserved ids and another namespace's
 * ids woven in at seeded places. Honest games are keyed by their ladder, the rest by whatever a
 * game server might use (a random key, or none).
 */
export function gameServerStream(
  seed: number,
  events: number,
  hostile: number,
  producer: string,
): { messages: ResultMessage[]; hostile: ReadonlySet<string> } {
  const next = seeded(seed);
  const honest = [
    ...generateEvents({
      seed,
      events,
      closes: false,
      badShare: 0.02,
      days: 5,
      idPrefix: `${producer}:`,
    }),
  ];
  const bad = hostileEvents(honest, hostile, next, producer);
  const out: ResultMessage[] = honest.map((value) => ({ key: ladderOf(value), value }));
  for (const value of bad) {
    const at = Math.floor(next() * (out.length + 1));
    const key = next() < 0.5 ? null : `k-${Math.floor(next() * 1e6)}`;
    out.splice(at, 0, { key, value });
  }
  return { messages: out, hostile: new Set(bad) };
}
