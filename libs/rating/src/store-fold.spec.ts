import type { LadderEvent } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { BUILT_IN_LADDERS, type LadderConfig } from './ladder-config.js';
import { LadderFold } from './ladder-fold.js';
import { encodeSnapshot, SnapshotDecoder } from './ladder-snapshot-codec.js';
import { acceptedLog, MemoryLadderStore } from './memory-ladder-store.fixture.js';
import { foldFromStore } from './store-fold.js';

/** A generated ladder's stored log. */
const storedLog = (ladder: LadderConfig, seed: number, events: number, annulmentShare = 0.04) =>
  acceptedLog(
    ladder,
    generateEvents({
      ladders: [ladder],
      seed,
      events,
      days: 20,
      playersPerLadder: 12,
      correctionShare: 0.08,
      annulmentShare,
    }),
  );

/** A fold's whole state as text: players, skill estimates, closes and every stored game row. */
// Game rows in any order: a resumed fold keeps its snapshot's games as text until an event reads
// one, so a game a later correction read comes after the others.
const stateOf = (fold: LadderFold): string =>
  [...encodeSnapshot(fold, '')].slice(1).sort().join('\n') + fold.closedPeriods().sort().join();

const ladders = BUILT_IN_LADDERS.filter((l) =>
  ['qq-gomoku', 'igame-gomoku', 'xinbo-go', 'squares-classic'].includes(l.id),
);

describe('foldFromStore: a ladder folded from its store (ADR 24)', () => {
  it('Given snapshots at any positions, When a ladder is folded from its store, Then the state is fromLog of the whole log and it starts from a snapshot no annulment after it reaches back past', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: ladders.length - 1 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
        async (which, seed, cuts) => {
          const ladder = ladders[which]!;
          const log = storedLog(ladder, seed, 240);
          const store = new MemoryLadderStore(ladder, log);
          for (const cut of cuts) {
            const at = Math.floor(cut * log.length);
            store.save((await foldFromStore(store, ladder, { upTo: at, fromStart: true })).fold);
          }
          const expected = LadderFold.fromLog(ladder, log, undefined, { skill: true });
          const got = await foldFromStore(store, ladder);
          expect(got.rejected).toBe(0);
          expect(got.position).toBe(log.length);
          expect(got.fold.accepted).toBe(log.length);
          expect(stateOf(got.fold)).toBe(stateOf(expected));
          // The start it chose is one of the snapshots (or the log's start) that no later
          // annulment reaches back past, and the newest such.
          const usable = [0, ...(await store.snapshotPositions())].filter(
            (p) =>
              p <= log.length &&
              log.every(
                (e, i) => e.type !== 'player.annulled' || i < p || !coversBefore(log, i, p),
              ),
          );
          expect(got.from).toBe(Math.max(...usable));
          expect(got.events).toBe(log.length - got.from);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('Given a dry-run annulment after the stored log, When folded from the store, Then the state is fromLog of the log with it', async () => {
    const ladder = ladders[0]!;
    const log = storedLog(ladder, 77, 300, 0);
    const store = new MemoryLadderStore(ladder, log);
    const half = await foldFromStore(store, ladder, { upTo: Math.floor(log.length / 2) });
    store.save(half.fold);
    const late = log.filter((e) => e.type === 'game.finished').at(-20)!;
    if (late.type !== 'game.finished') throw new Error('no game');
    const annul: LadderEvent = {
      type: 'player.annulled',
      id: 'dry-run-annulment',
      ladder: ladder.id,
      player: late.players[0]!.id,
      since: late.finishedAt,
      annulledAt: '2030-01-01T00:00:00Z',
      reason: 'fair-play review',
    } as LadderEvent;
    const got = await foldFromStore(store, ladder, { then: [annul] });
    const expected = LadderFold.fromLog(ladder, [...log, annul], undefined, { skill: true });
    expect(stateOf(got.fold)).toBe(stateOf(expected));
    expect(got.from).toBe(half.position);
  });

  it('Given snapshots with and without the skill estimate, When folded with or without it, Then a snapshot without it is not used for a fold that keeps it, and one with it gives its players to a fold that does not', async () => {
    const ladder = ladders[1]!;
    const log = storedLog(ladder, 8, 200, 0);
    const store = new MemoryLadderStore(ladder, log);
    const early = Math.floor(log.length * 0.4);
    const late = Math.floor(log.length * 0.8);
    store.save((await foldFromStore(store, ladder, { upTo: early })).fold);
    store.save((await foldFromStore(store, ladder, { upTo: late, skill: false })).fold);
    const whole = LadderFold.fromLog(ladder, log, undefined, { skill: true });

    const kept = await foldFromStore(store, ladder);
    expect(kept.from).toBe(early);
    expect(stateOf(kept.fold)).toBe(stateOf(whole));

    store.save((await foldFromStore(store, ladder, { upTo: late })).fold);
    const plain = await foldFromStore(store, ladder, { skill: false });
    expect(plain.from).toBe(late);
    expect(plain.fold.skill).toBeNull();
    expect(stateOf(plain.fold)).toBe(stateOf(LadderFold.fromLog(ladder, log)));
  });

  it('Given a lost, damaged, foreign or older-format snapshot, When folded from the store, Then it is not used and the state is the same', async () => {
    const ladder = ladders[1]!;
    const log = storedLog(ladder, 5, 200);
    const expected = stateOf(LadderFold.fromLog(ladder, log, undefined, { skill: true }));
    const at = Math.floor(log.length * 0.8);
    for (const damage of ['format', 'config', 'event'] as const) {
      const store = new MemoryLadderStore(ladder, log);
      store.save((await foldFromStore(store, ladder, { upTo: at })).fold);
      const lines = store.lines(at)!;
      const header = JSON.parse(lines[0]!) as Record<string, unknown>;
      if (damage === 'format') header['format'] = 0;
      if (damage === 'config') header['config'] = 'another';
      if (damage === 'event') header['lastEventId'] = 'not-this-log';
      lines[0] = JSON.stringify(header);
      const got = await foldFromStore(store, ladder);
      expect([damage, got.from]).toEqual([damage, 0]);
      expect(stateOf(got.fold)).toBe(expected);
    }
  });
});

/** Whether the annulment at `at` covers a game standing before position `p`. */
function coversBefore(log: readonly LadderEvent[], at: number, p: number): boolean {
  const a = log[at]!;
  if (a.type !== 'player.annulled') return false;
  const since = Date.parse(a.since);
  return log
    .slice(0, p)
    .some(
      (e) =>
        e.type === 'game.finished' &&
        Date.parse(e.finishedAt) >= since &&
        e.players.some((x) => x.id === a.player),
    );
}

describe('SNAPSHOT_FORMAT', () => {
  it('Given a fixed log, When folded, Then its snapshot text has the pinned digest (if the fold changed, bump SNAPSHOT_FORMAT, then this digest)', () => {
    const digest = createHash('sha256');
    for (const ladder of ladders) {
      const fold = LadderFold.fromLog(ladder, storedLog(ladder, 2026, 400), undefined, {
        skill: true,
      });
      for (const line of encodeSnapshot(fold, 'x')) digest.update(`${line}\n`);
    }
    expect(digest.digest('hex')).toBe(
      'a36d9b7321c9b45679174b520bbf38e7b968ad67b7176fd351f53ab5fd216e1e',
    );
  });
});

describe('foldFromStore markWrittenAt', () => {
  it('Given a position, When a ladder is folded with markWrittenAt there, Then the game rows it lists as written are those of events from that position on', async () => {
    const ladder = ladders[0]!;
    const log = storedLog(ladder, 31, 300, 0);
    const at = Math.floor(log.length * 0.7);
    const { fold } = await foldFromStore(new MemoryLadderStore(ladder, log), ladder, {
      markWrittenAt: at,
    });
    const touched = new Set(
      log
        .slice(at)
        .flatMap((e) =>
          e.type === 'game.finished' || e.type === 'game.corrected' ? [e.gameId] : [],
        ),
    );
    const listed = fold.changedGameRows().map(([id]) => id);
    expect(listed.length).toBeGreaterThan(0);
    for (const id of listed) expect(touched.has(id)).toBe(true);
  });
});

describe('the snapshot codec', () => {
  it('Given game ids with quotes, tabs, backslashes and non-ASCII text, When a fold is written and read back, Then its games come back as they were', () => {
    const ladder = ladders[0]!;
    const ids = ['plain', 'with "quotes"', 'tab\there', 'back\\slash', '五十K-局', 'line\nbreak'];
    const log = ids.map((gameId, i): LadderEvent => ({
      id: `e-${i}`,
      type: 'game.finished',
      ladder: ladder.id,
      gameId,
      finishedAt: `2026-11-2${i}T10:00:00+08:00`,
      moves: 40,
      players: [
        { id: `a${i}`, result: 'win' },
        { id: `b${i}`, result: 'loss' },
      ],
    }));
    const fold = LadderFold.fromLog(ladder, log, [], { skill: true });
    const store = new MemoryLadderStore(ladder, log);
    store.save(fold);
    const lines = store.lines(log.length)!;
    expect(lines.filter((l) => l.startsWith('G'))).toHaveLength(ids.length);
    const restored = LadderFold.restore(ladder, {
      ...(() => {
        const decoder = new SnapshotDecoder(ladder);
        for (const line of lines) decoder.line(line);
        return decoder.result().state;
      })(),
    });
    expect([...restored.gameRows()]).toEqual([...fold.gameRows()]);
  });
});
