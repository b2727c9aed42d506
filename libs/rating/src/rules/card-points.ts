import { type GameResult, type PlayerReport, reject } from '@ranking/contracts';
import { type PlayerEffect, rated } from '../effect.js';
import type { GameInput, GameScore, RuleSet } from '../rule-set.js';
import { ranking, type SkillMatch, teamsBy } from '../skill-match.js';
import { CARD_POINTS_PARAMS, type CardPointsParams } from './card-points-params.js';

const inconsistent = (detail: string): GameScore => ({
  kind: 'rejected',
  rejection: reject('inconsistent-result', detail),
});

const teamOf = (p: PlayerReport): 0 | 1 => ((p.seat ?? 0) % 2 === 0 ? 0 : 1);
const out = (p: PlayerReport): boolean => p.finishOrder !== null && p.finishOrder !== undefined;
/** Hand points count only for players still holding cards. */
const handLoss = (p: PlayerReport): number => (out(p) ? 0 : p.handPoints!);

/** The finish orders in the game, sorted, e.g. "1,2" or "1,2,3". */
const orders = (players: readonly PlayerReport[]): string =>
  players
    .filter(out)
    .map((p) => p.finishOrder!)
    .sort((a, b) => a - b)
    .join(',');

/** Derived results must match any result the event states. */
function check(players: readonly PlayerReport[], derived: readonly GameResult[]): GameScore | null {
  const index = players.findIndex((p, i) => p.result !== undefined && p.result !== derived[i]);
  return index < 0
    ? null
    : inconsistent(
        `/players/${index}/result is ${players[index]!.result}, the hand gives ${derived[index]}`,
      );
}

function fourPlayers(players: readonly PlayerReport[], params: CardPointsParams): GameScore {
  const outOrders = orders(players);
  const first = players.find((p) => p.finishOrder === 1)!;
  const second = players.find((p) => p.finishOrder === 2)!;
  const sweep = outOrders === '1,2' && teamOf(first) === teamOf(second);
  const finished = sweep || (outOrders === '1,2,3' && teamOf(first) !== teamOf(second));
  if (!finished)
    return inconsistent(`finish orders {${outOrders}} do not describe a finished hand`);
  const card = players.map((p) => {
    let total = p.tablePoints! - handLoss(p);
    if (p.finishOrder === 1) total += params.firstOutBonus;
    // A sweep costs both losers 20; otherwise only the last player still holding cards pays.
    if (!out(p)) total -= params.lastOutPenalty;
    return total;
  });
  const totals: [number, number] = [0, 0];
  const table: [number, number] = [0, 0];
  players.forEach((p, i) => {
    totals[teamOf(p)] += card[i]!;
    table[teamOf(p)] += p.tablePoints!;
  });
  const firstTeam = teamOf(first);
  const winner: 0 | 1 = totals[0] === totals[1] ? firstTeam : totals[0] > totals[1] ? 0 : 1;
  const loser = winner === 0 ? 1 : 0;
  const doubled = table[loser] === 0 && firstTeam !== loser;
  const results = players.map((p): GameResult => (teamOf(p) === winner ? 'win' : 'loss'));
  const mismatch = check(players, results);
  if (mismatch) return mismatch;
  const effects = players.map((p, i): PlayerEffect => {
    const teamTotal = totals[teamOf(p)];
    const points = (teamTotal / 2) * (doubled ? 2 : 1);
    return rated(results[i]!, points, { kind: 'card-points', card: card[i]!, teamTotal, doubled });
  });
  return { kind: 'scored', effects };
}

function threePlayers(players: readonly PlayerReport[], params: CardPointsParams): GameScore {
  const outOrders = orders(players);
  if (outOrders !== '1,2')
    return inconsistent(`finish orders {${outOrders}} do not describe a finished hand`);
  const card = players.map((p) => {
    if (p.finishOrder === 1) return p.tablePoints! + params.firstOutBonus;
    if (!out(p)) return p.tablePoints! - params.lastOutPenalty - p.handPoints!;
    return p.tablePoints!;
  });
  // Places by card total; ties go to the earlier finisher (still holding cards = last).
  const finish = (p: PlayerReport) => p.finishOrder ?? 4;
  const ranking = players
    .map((p, i) => i)
    .sort((a, b) => card[b]! - card[a]! || finish(players[a]!) - finish(players[b]!));
  const place = new Array<number>(players.length);
  ranking.forEach((index, rank) => (place[index] = rank + 1));
  const doubled = ranking.slice(1).every((i) => players[i]!.tablePoints === 0);
  const results = players.map((_, i): GameResult =>
    place[i] === 1 ? 'win' : place[i] === 3 ? 'loss' : 'draw',
  );
  const mismatch = check(players, results);
  if (mismatch) return mismatch;
  const effects = players.map((_, i): PlayerEffect =>
    rated(results[i]!, card[i]! * (doubled ? 2 : 1), {
      kind: 'card-points',
      card: card[i]!,
      place: place[i]!,
      doubled,
    }),
  );
  return { kind: 'scored', effects };
}

/** Three players as a ranking of three by their derived places; four as the two teams of opposite seats. */
function skillMatch(
  players: readonly PlayerReport[],
  effects: readonly PlayerEffect[],
): SkillMatch | null {
  if (players.length === 4) return teamsBy(players, effects, (p) => String(teamOf(p)));
  const places = effects.map((e) => (e.why.kind === 'card-points' ? (e.why.place ?? 0) : 0));
  return places.every((p) => p > 0) ? ranking(places) : null;
}

/** QQ 五十K (seed 001): results are derived from the hand, not taken from the event. */
export const cardPoints: RuleSet = {
  name: 'card-points',
  params: CARD_POINTS_PARAMS,
  reportFields: ['result', 'seat', 'tablePoints', 'finishOrder', 'handPoints'],
  playerCounts: [3, 4],
  skillMatch,
  closes: [],
  penalties: { floor: () => null },
  disconnects: () => null,
  keepsRating: true,
  tracksDailyCaptures: false,
  requiredFields(players) {
    for (const field of ['seat', 'tablePoints', 'finishOrder', 'handPoints'] as const) {
      const index = players.findIndex((p) => p[field] === undefined);
      if (index >= 0) return `/players/${index}/${field} is required`;
    }
    const seats = new Set(players.map((p) => p.seat));
    return seats.size === players.length ? null : 'seats must be distinct';
  },
  score: ({ players, ladder }: GameInput<CardPointsParams>) =>
    players.length === 4
      ? fourPlayers(players, ladder.params)
      : threePlayers(players, ladder.params),
  outputFields: () => ({}),
};
