import fc from 'fast-check';
import type { PlayerReport } from '@ranking/contracts';
import { GameBook } from './game-book.js';
import type { GameRecord } from './game-record.js';
import { decodeRecord, encodeRecord } from './game-record-codec.js';
import { RULE_SETS } from './rule-sets.js';
import { settingOf } from './rule-set.js';
import { TextArena } from './text-arena.js';

const CARD = RULE_SETS['card-points'];
const IGAME = RULE_SETS['igame-elo'];

/** A record as a correction reads it back: the decoded form of its stored text. */
const stored = (record: GameRecord, rules = CARD): GameRecord =>
  decodeRecord(record.gameId, encodeRecord(record, rules), rules);

const cardGame = (gameId: string, n: number): GameRecord => ({
  gameId,
  finishedAt: 1_764_400_000_000 + n * 1000 + 0.5,
  moves: n,
  setting: n % 3 === 0 ? settingOf(undefined) : settingOf({ handicap: n % 5, teacher: true }),
  players: [
    { id: `p-${n}`, result: 'win', seat: 0, tablePoints: -0, finishOrder: 1, handPoints: 12.5 },
    { id: `q-${n}`, seat: 1, tablePoints: 40, finishOrder: null, handPoints: 0 },
    { id: '甲', result: 'loss', seat: 2, tablePoints: 0, finishOrder: 2, handPoints: -7 },
  ] as PlayerReport[],
  before: [1500.5, 25, 0, 0, -0, 14, 1, 7, 3, 1, 0, 10],
  effects: [12.5, 0, 19, -0, 3, 1, -6, 0, 21],
  voidOnArrival: n % 7 === 0 ? 'too-short' : null,
  covered: n % 5 === 0,
});

describe('GameBook', () => {
  it('Given records of every value kind, When kept, Then each reads back as its stored text decodes and encodes to the same text', () => {
    const book = new GameBook(CARD);
    const games = Array.from({ length: 300 }, (_, n) => cardGame(`g-${n}`, n));
    for (const g of games) book.addRecord(g);
    expect(book.size).toBe(300);
    for (const g of games) {
      expect(book.record(g.gameId)).toEqual(stored(g));
      expect(book.encoded(g.gameId)).toBe(encodeRecord(g, CARD));
    }
    expect([...book.records()].map((r) => r.gameId)).toEqual(games.map((g) => g.gameId));
  });

  it('Given more records than one chunk holds and ids of every length, When kept, Then every one reads back', () => {
    const book = new GameBook(IGAME);
    const id = (n: number) => `game-${n}-${'x'.repeat(n % 97)}`;
    const record = (n: number): GameRecord => ({
      gameId: id(n),
      finishedAt: n,
      moves: n % 300,
      setting: settingOf(undefined),
      players: [
        { id: `a${n % 1000}`, result: 'win', ip: `10.0.0.${n % 7}` },
        { id: `b${n % 1000}`, result: 'loss' },
      ],
      before: [1600 + n, 25, 0, 0, 1600 - n, 25, 0, 0],
      effects: [16, 0, 19, -16, 0, 21],
      voidOnArrival: null,
      covered: n % 11 === 0,
    });
    for (let n = 0; n < 140_000; n++) book.addRecord(record(n));
    expect(book.size).toBe(140_000);
    for (const n of [0, 1, 65_535, 65_536, 65_537, 99_999, 139_999])
      expect(book.record(id(n))).toEqual(stored(record(n), IGAME));
    expect(book.has('game-140000-')).toBe(false);
    expect(book.record('nope')).toBeUndefined();
  });

  it('Given a game id that repeats, When both are kept, Then the later record is the game and it counts once', () => {
    const book = new GameBook(CARD);
    book.addRecord(cardGame('same', 1));
    book.addRecord(cardGame('other', 2));
    book.addRecord(cardGame('same', 3));
    expect(book.size).toBe(2);
    expect(book.record('same')).toEqual(stored(cardGame('same', 3)));
    expect([...book.records()].map((r) => [r.gameId, r.moves])).toEqual([
      ['other', 2],
      ['same', 3],
    ]);
  });

  it('Given a book marked unchanged, When a game is added and another rewritten, Then changes lists exactly those two', () => {
    const book = new GameBook(CARD);
    for (let n = 0; n < 5; n++) book.addRecord(cardGame(`g-${n}`, n));
    book.markUnchanged();
    expect(book.changes()).toEqual([]);
    book.addRecord(cardGame('g-new', 9));
    const players = cardGame('g-2', 2).players.map((p) => ({ ...p, result: 'draw' as const }));
    const zero = { rating: 0, games: 0, wins: 0, losses: 0, draws: 0, rated: 0, captures: 0 };
    book.rewrite('g-2', players, [zero, zero, zero]);
    expect(book.changes().sort()).toEqual(['g-2', 'g-new']);
    const rewritten = book.record('g-2')!;
    expect(rewritten.players.map((p) => p.result)).toEqual(['draw', 'draw', 'draw']);
    expect(rewritten.effects).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(rewritten.before).toEqual(stored(cardGame('g-2', 2)).before);
  });
});

describe('TextArena', () => {
  it('keeps any texts, across chunk boundaries, and tells them apart', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string({ maxLength: 40 }),
            fc
              .tuple(
                fc.string({ minLength: 1, maxLength: 3 }),
                fc.integer({ min: 100_000, max: 200_000 }),
              )
              .map(([unit, times]) => unit.repeat(times)),
          ),
          {
            maxLength: 12,
          },
        ),
        (texts) => {
          const arena = new TextArena();
          const ends = [0];
          for (const t of texts) ends.push(arena.put(t));
          texts.forEach((t, i) => {
            expect(arena.get(ends[i]!, ends[i + 1]!)).toBe(t);
            expect(arena.equals(ends[i]!, ends[i + 1]!, t)).toBe(true);
            expect(arena.equals(ends[i]!, ends[i + 1]!, `${t}x`)).toBe(false);
          });
        },
      ),
      { numRuns: 60 },
    );
  });
});
