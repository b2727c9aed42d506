import type { LadderEvent } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import fc from 'fast-check';
import { ChangedFromStore } from './changed-from-store.js';
import { BUILT_IN_LADDERS, type LadderConfig } from './ladder-config.js';
import { LadderFold } from './ladder-fold.js';
import { acceptedLog, MemoryLadderStore } from './memory-ladder-store.fixture.js';
import { foldFromStore } from './store-fold.js';

const ladder = BUILT_IN_LADDERS.find((l) => l.id === 'igame-gomoku')!;
/** New players start higher: the variant's players differ by when they came. */
const variant: LadderConfig = { ...ladder, startRating: ladder.startRating + 500 };

const storedLog = (seed: number, annulmentShare: number) =>
  acceptedLog(
    ladder,
    generateEvents({
      ladders: [ladder],
      seed,
      events: 300,
      days: 20,
      playersPerLadder: 30,
      correctionShare: 0.05,
      annulmentShare,
    }),
  );

const playersOf = (fold: LadderFold): string =>
  JSON.stringify([...fold.players.values()].sort((a, b) => (a.id < b.id ? -1 : 1)));

describe('ChangedFromStore: a what-if whose settings change at a position', () => {
  it('Given any position, When the variant is folded over it, Then the state is the ladder as it is there, the rest of the log folded under the variant', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (seed, cut) => {
          const log = storedLog(seed, 0);
          const at = Math.floor(cut * log.length);
          const store = new MemoryLadderStore(ladder, log);
          const got = await foldFromStore(new ChangedFromStore(store, ladder, at), variant, {
            skill: false,
          });
          expect(got.from).toBe(at);
          expect(got.rejected).toBe(0);
          const expected = LadderFold.restore(
            variant,
            LadderFold.fromLog(ladder, log.slice(0, at)).snapshot(),
          );
          for (const event of log.slice(at)) expected.evolve(event);
          expect(playersOf(got.fold)).toBe(playersOf(expected));
          expect(got.fold.accepted).toBe(log.length);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('Given the log start or its end, Then the variant throughout or the ladder as it is; given the ladder itself, Then its own fold', async () => {
    const log = storedLog(3, 0);
    const store = new MemoryLadderStore(ladder, log);
    const over = (at: number, config: LadderConfig) =>
      foldFromStore(new ChangedFromStore(store, ladder, at), config, { skill: false });
    expect(playersOf((await over(0, variant)).fold)).toBe(
      playersOf(LadderFold.fromLog(variant, log)),
    );
    const asIs = playersOf(LadderFold.fromLog(ladder, log));
    expect(asIs).not.toBe(playersOf(LadderFold.fromLog(variant, log)));
    expect(playersOf((await over(log.length, variant)).fold)).toBe(asIs);
    expect(playersOf((await over(Math.floor(log.length / 3), ladder)).fold)).toBe(asIs);
  });

  it('Given an annulment after the position that covers a game before it, Then the fold does not start there', async () => {
    const log = storedLog(11, 0);
    const games = log.filter((e) => e.type === 'game.finished');
    const early = games[Math.floor(games.length / 4)]!;
    if (early.type !== 'game.finished') throw new Error('no game');
    const annulled: LadderEvent[] = [
      ...log,
      {
        type: 'player.annulled',
        id: 'annul-late',
        ladder: ladder.id,
        player: early.players[0]!.id,
        since: early.finishedAt,
        annulledAt: '2030-01-01T00:00:00Z',
        note: 'fair-play review',
      },
    ];
    const store = new MemoryLadderStore(ladder, annulled);
    const at = Math.floor(log.length / 2);
    const got = await foldFromStore(new ChangedFromStore(store, ladder, at), variant);
    expect(got.from).toBe(0);
  });
});
