import { boardDateOfClose, closeKeyOfBoard, isRealDate, publishedAt } from './board-dates.js';

describe('board dates', () => {
  it("names a board by the 06:00 after its day's close (ADR 4)", () => {
    expect(boardDateOfClose('2026-11-29')).toBe('2026-11-30');
    expect(boardDateOfClose('2026-12-31')).toBe('2027-01-01');
    expect(closeKeyOfBoard('2027-03-01')).toBe('2027-02-28');
  });

  it('publishes at 06:00 in the ladder zone', () => {
    expect(publishedAt('2026-11-30', 'Asia/Shanghai')).toBe('2026-11-30T06:00:00.000+08:00');
  });

  it.each([
    ['2026-02-29', false],
    ['2028-02-29', true],
    ['2026-13-01', false],
    ['26-01-01', false],
  ])('%s is a real date: %s', (date, real) => {
    expect(isRealDate(date)).toBe(real);
  });
});
