import { countDisconnect, type DisconnectCounter, disconnectPenaltyId } from './index.js';
import { IGAME_ELO_PARAMS } from './rules/igame-elo-params.js';

// RULES.md igame-elo "Disconnects" and "Details the tests rely on": each game with a disconnect
// adds 1; at 5 the player is penalized -100 and the counter returns to 0; 50 consecutive clean
// games reset the counter to 0 and the streak keeps running. Void games are never passed in.

const ZERO: DisconnectCounter = { count: 0, streak: 0, penalties: 0 };

/** Folds a sequence of games ('x' = disconnected, '.' = clean) and lists the penalties issued. */
function play(
  start: DisconnectCounter,
  games: string,
): { counter: DisconnectCounter; penalties: number[] } {
  let counter = start;
  const penalties: number[] = [];
  for (const g of games) {
    const step = countDisconnect(counter, g === 'x');
    if (step.penaltyOrdinal !== null) penalties.push(step.penaltyOrdinal);
    counter = step.counter;
  }
  return { counter, penalties };
}

describe('disconnect policy', () => {
  it('given the rule of seed 002, then the limit is 5, the penalty -100 and the clean reset 50', () => {
    expect(IGAME_ELO_PARAMS.defaults).toMatchObject({
      disconnectLimit: 5,
      disconnectPenalty: -100,
      cleanStreak: 50,
    });
  });

  describe('given a fresh counter', () => {
    it('when the player disconnects then the counter is 1, the streak 0 and no penalty is due', () => {
      expect(countDisconnect(ZERO, true)).toEqual({
        counter: { count: 1, streak: 0, penalties: 0 },
        penaltyOrdinal: null,
      });
    });

    it('when the player plays clean then the streak is 1 and the counter stays 0', () => {
      expect(countDisconnect(ZERO, false)).toEqual({
        counter: { count: 0, streak: 1, penalties: 0 },
        penaltyOrdinal: null,
      });
    });

    it('when the player disconnects 4 times then the counter is 4 and no penalty is due', () => {
      expect(play(ZERO, 'xxxx')).toEqual({
        counter: { count: 4, streak: 0, penalties: 0 },
        penalties: [],
      });
    });

    it('when the player disconnects 5 times then exactly one penalty (ordinal 1) is due and the counter wraps to 0', () => {
      expect(play(ZERO, 'xxxxx')).toEqual({
        counter: { count: 0, streak: 0, penalties: 1 },
        penalties: [1],
      });
    });

    it('when the player disconnects 6 times then one penalty is due and the counter is 1', () => {
      expect(play(ZERO, 'xxxxxx')).toEqual({
        counter: { count: 1, streak: 0, penalties: 1 },
        penalties: [1],
      });
    });

    it('when the player disconnects 10 times then two penalties (ordinals 1, 2) are due', () => {
      expect(play(ZERO, 'x'.repeat(10))).toEqual({
        counter: { count: 0, streak: 0, penalties: 2 },
        penalties: [1, 2],
      });
    });

    it('when disconnects are spread out with fewer than 50 clean games between them then they still add up to a penalty', () => {
      const games = `x${'.'.repeat(49)}x${'.'.repeat(10)}x.x.x`;
      expect(play(ZERO, games)).toEqual({
        counter: { count: 0, streak: 0, penalties: 1 },
        penalties: [1],
      });
    });
  });

  describe('given a counter at 4 with a clean streak of 7', () => {
    const four: DisconnectCounter = { count: 4, streak: 7, penalties: 0 };

    it('when the player disconnects then the penalty is due and counter and streak return to 0', () => {
      expect(countDisconnect(four, true)).toEqual({
        counter: { count: 0, streak: 0, penalties: 1 },
        penaltyOrdinal: 1,
      });
    });

    it('when 2 penalties were issued before then the new one has ordinal 3', () => {
      expect(countDisconnect({ ...four, penalties: 2 }, true)).toEqual({
        counter: { count: 0, streak: 0, penalties: 3 },
        penaltyOrdinal: 3,
      });
    });
  });

  describe('given a counter at 4 after its last disconnect', () => {
    const four: DisconnectCounter = { count: 4, streak: 0, penalties: 0 };

    it('when 49 clean games follow then the counter is still 4', () => {
      expect(play(four, '.'.repeat(49)).counter).toEqual({ count: 4, streak: 49, penalties: 0 });
    });

    it('when the 50th clean game follows then the counter resets to 0', () => {
      expect(play(four, '.'.repeat(50)).counter).toEqual({ count: 0, streak: 50, penalties: 0 });
    });

    it('when the streak runs on past 50 then it keeps counting and the counter stays 0', () => {
      expect(play(four, '.'.repeat(51)).counter).toEqual({ count: 0, streak: 51, penalties: 0 });
    });

    it('when a disconnect follows the reset then the counter restarts at 1 (no penalty)', () => {
      expect(play(four, `${'.'.repeat(50)}x`)).toEqual({
        counter: { count: 1, streak: 0, penalties: 0 },
        penalties: [],
      });
    });

    it('when a disconnect interrupts the streak at 49 then the streak restarts and the counter reaches 5', () => {
      // 4 + 1 = 5: the penalty, counter 0; the 49 clean games before it did not forgive
      expect(play(four, `${'.'.repeat(49)}x`)).toEqual({
        counter: { count: 0, streak: 0, penalties: 1 },
        penalties: [1],
      });
    });
  });

  describe('given a counter at 3', () => {
    it('when 30 clean games, a disconnect and 49 clean games follow then it is 4; the 50th clean game resets it', () => {
      const start: DisconnectCounter = { count: 3, streak: 0, penalties: 0 };
      const games = `${'.'.repeat(30)}x${'.'.repeat(49)}`;
      expect(play(start, games).counter).toEqual({ count: 4, streak: 49, penalties: 0 });
      expect(play(start, `${games}.`).counter).toEqual({ count: 0, streak: 50, penalties: 0 });
    });
  });

  it('given a player and an ordinal, then the penalty id is deterministic', () => {
    expect(disconnectPenaltyId('igame-gomoku', 'bob', 2)).toBe(
      'player.penalized:igame-gomoku:bob:disconnects:2',
    );
  });
});
