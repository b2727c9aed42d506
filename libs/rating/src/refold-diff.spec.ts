import type { LadderEvent } from '@ranking/contracts';
import { annulmentsOf, annulmentWhy } from './annulment.js';
import { LadderFold } from './ladder-fold.js';
import { ladderRegistry } from './ladder-registry.js';
import { playersNamed, refoldDiff, withLater } from './refold-diff.js';
import { loss, win } from './reports.fixture.js';

const IG = ladderRegistry().get('igame-gomoku')!;

const game = (id: string, at: string, winner: string, loser: string): LadderEvent => ({
  id,
  type: 'game.finished',
  ladder: IG.id,
  gameId: `g-${id}`,
  finishedAt: at,
  moves: 40,
  players: [win(winner, { ip: `10.0.0.${winner}` }), loss(loser, { ip: `10.0.0.${loser}` })],
});

const LOG: LadderEvent[] = [
  game('g1', '2026-11-20T10:00:00+08:00', '1', '2'),
  game('g2', '2026-11-21T10:00:00+08:00', '3', '1'),
  game('g3', '2026-11-22T10:00:00+08:00', '1', '4'),
];
const ANNUL = {
  id: 'annul-3',
  type: 'player.annulled',
  ladder: IG.id,
  player: '3',
  since: '2026-11-21T00:00:00+08:00',
  annulledAt: '2026-11-23T00:00:00+08:00',
  note: 'review',
} as LadderEvent;

describe('refoldDiff: what a re-fold changes against stored rows', () => {
  it('Given the stored state before an annulment, When the ladder is re-folded with it, Then the moved players are listed with it as why, the annulled player’s only game leaves no estimate and an unmoved player is left alone', () => {
    // Given
    const stored = LadderFold.fromLog(IG, LOG, [], { skill: true });
    const log = [...LOG, ANNUL];
    // When
    const refolded = LadderFold.fromLog(IG, log, undefined, { skill: true });
    const why = annulmentWhy(annulmentsOf(log)[0]!);
    const diff = refoldDiff(stored.players, stored.skill!.players, refolded, why);
    // Then
    expect(diff.changes.map((c) => c.player).sort()).toEqual(['1', '3', '4']);
    for (const c of diff.changes) expect(c.why).toEqual(why);
    expect(diff.staleSkills).toEqual(['3']);
    expect(diff.skill.get('3')?.after).toEqual({ mu: 25, sigma: 25 / 3 });
    expect(diff.players.map((p) => p.id).sort()).toEqual(['1', '3', '4']);
    expect(diff.skill.has('2')).toBe(false);
  });

  it('Given stored rows equal to the re-fold, When compared, Then nothing is to write', () => {
    const fold = LadderFold.fromLog(IG, LOG, [], { skill: true });
    const diff = refoldDiff(fold.players, fold.skill!.players, fold, {
      kind: 'annulment',
      player: 'x',
      since: 0,
    });
    expect(diff).toEqual({ changes: [], players: [], skill: new Map(), staleSkills: [] });
  });
});

describe('withLater: a diff brought up to date for the players later events named', () => {
  it('Given a diff before a later game, When the game is folded and its players diffed again, Then the merged diff equals a diff of everything', () => {
    // Given: stored rows before the annulment, a diff against the re-fold up to here
    const stored = LadderFold.fromLog(IG, LOG, [], { skill: true });
    const log = [...LOG, ANNUL];
    const refolded = LadderFold.fromLog(IG, log, undefined, { skill: true });
    const why = annulmentWhy(annulmentsOf(log)[0]!);
    const earlier = refoldDiff(stored.players, stored.skill!.players, refolded, why);
    // When: a later game (folded live into the stored rows, and into the re-fold)
    const later = game('g4', '2026-11-24T10:00:00+08:00', '4', '5');
    stored.evolve(later);
    refolded.evolve(later);
    const touched = playersNamed([later])!;
    const merged = withLater(
      earlier,
      refoldDiff(stored.players, stored.skill!.players, refolded, why, touched),
      touched,
    );
    // Then
    const full = refoldDiff(stored.players, stored.skill!.players, refolded, why);
    const sorted = (d: typeof full) => ({
      changes: [...d.changes].sort((a, b) => a.player.localeCompare(b.player)),
      players: d.players.map((p) => p.id).sort(),
      skill: [...d.skill].sort(),
      staleSkills: [...d.staleSkills].sort(),
    });
    expect(sorted(merged)).toEqual(sorted(full));
    expect(touched).toEqual(new Set(['4', '5']));
    expect(playersNamed([ANNUL])).toBeNull();
  });
});
