import { penalize } from './index.js';

// RULES.md "Penalty floor": a penalty never takes a rating below the floor, and a rating at or
// below the floor is not penalized. igame-elo: floor 100; xinbo-points: floor 0; others: none.

describe('penalize', () => {
  describe('given the igame-elo floor of 100', () => {
    it.each([
      // [rating, points, expected, arithmetic]
      [1600, -30, 1570, '1600 - 30 = 1570 (weekly quota)'],
      [1600, -200, 1400, '1600 - 200 = 1400 (monthly)'],
      [1600, -100, 1500, '1600 - 100 = 1500 (disconnects)'],
      [130, -30, 100, '130 - 30 = 100, exactly the floor'],
      [131, -30, 101, '131 - 30 = 101'],
      [110, -30, 100, '110 - 30 = 80 < 100: stops at 100'],
      [101, -200, 100, '101 - 200 = -99 < 100: stops at 100'],
      [250, -200, 100, '250 - 200 = 50 < 100: stops at 100'],
      [150, -100, 100, '150 - 100 = 50 < 100: stops at 100'],
      [100, -30, 100, 'at the floor: not penalized'],
      [100, -200, 100, 'at the floor: not penalized'],
      [90, -30, 90, 'below the floor: not penalized, and not raised to it'],
      [0, -100, 0, 'below the floor: untouched'],
    ])('when %d is penalized by %d then it becomes %d (%s)', (rating, points, expected) => {
      expect(penalize(rating, points, 100)).toBe(expected);
    });
  });

  describe('given the xinbo-points floor of 0', () => {
    it.each([
      [50, -10, 40, '50 - 10 = 40'],
      [5, -10, 0, '5 - 10 = -5 < 0: stops at 0'],
      [0, -10, 0, 'at the floor: not penalized'],
    ])('when %d is penalized by %d then it becomes %d (%s)', (rating, points, expected) => {
      expect(penalize(rating, points, 0)).toBe(expected);
    });
  });

  describe('given no floor', () => {
    it.each([
      [50, -100, -50, '50 - 100 = -50: points apply as they are'],
      [-300, -100, -400, '-300 - 100 = -400'],
      [0, -0.5, -0.5, 'half points too'],
    ])('when %d is penalized by %d then it becomes %d (%s)', (rating, points, expected) => {
      expect(penalize(rating, points, null)).toBe(expected);
    });
  });
});
