import { parseEvent } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import {
  dueCloses,
  eventInstant,
  ladderRegistry,
  openingWindows,
  PeriodCalendar,
  periodClosedEvent,
  ReplayEngine,
  RULE_SETS,
} from '@ranking/rating';

const LADDERS = ladderRegistry();
const igame = LADDERS.get('igame-gomoku')!;
const qq = LADDERS.get('qq-gomoku')!;

describe('close schedule (the maintenance clock as pure functions)', () => {
  const taipei = PeriodCalendar.of('Asia/Taipei');

  it('given an i.Game clock started on Sunday 31 Jan 2027, when Monday 1 Feb 06:00 passes, then weekly, monthly, daily close in that order', () => {
    const open = openingWindows(
      RULE_SETS['igame-elo'],
      taipei,
      Date.parse('2027-01-31T12:00:00+08:00'),
    );
    const { due, open: after } = dueCloses(open, taipei, Date.parse('2027-02-01T06:00:00+08:00'));
    expect(due.map((w) => `${w.period}:${w.key}`)).toEqual([
      'weekly:2027-W04',
      'monthly:2027-01',
      'daily:2027-01-31',
    ]);
    expect(after.map((w) => `${w.period}:${w.key}`)).toEqual([
      'weekly:2027-W05',
      'monthly:2027-02',
      'daily:2027-02-01',
    ]);
  });

  it('given a clock, when the instant is a millisecond before 06:00, then nothing is due', () => {
    const open = openingWindows(
      RULE_SETS['qq-points'],
      taipei,
      Date.parse('2026-12-31T07:00:00+08:00'),
    );
    expect(dueCloses(open, taipei, Date.parse('2027-01-01T05:59:59.999+08:00')).due).toEqual([]);
  });

  it('given a close, then its event carries the contract id and local start and end', () => {
    const w = taipei.window('weekly', '2026-W53');
    expect(periodClosedEvent('igame-gomoku', taipei, w)).toEqual({
      id: 'period.closed:igame-gomoku:weekly:2026-W53',
      type: 'period.closed',
      ladder: 'igame-gomoku',
      period: 'weekly',
      key: '2026-W53',
      start: '2026-12-28T06:00:00+08:00',
      end: '2027-01-04T06:00:00+08:00',
    });
  });

  it('given a generated stream, when the schedule runs at each event and at the end, then it closes what --simulate closes, in the same order', () => {
    const lines = [
      ...generateEvents({
        seed: 17,
        events: 600,
        ladders: [igame, qq],
        days: 50,
        badShare: 0,
        correctionShare: 0,
        start: '2026-12-10T00:00:00+08:00',
      }),
    ];
    const until = Date.parse('2027-02-03T07:00:00+08:00');
    const engine = new ReplayEngine(LADDERS, { simulate: true });
    for (const line of lines) engine.ingestLine(line);
    engine.finish(until);
    const simulated = new Map(engine.snapshot().ladders.map((l) => [l.ladder, l.closed]));

    for (const ladder of [igame, qq]) {
      const calendar = PeriodCalendar.of(ladder.timezone);
      let open: ReturnType<typeof openingWindows> | null = null;
      const closed: string[] = [];
      for (const line of lines) {
        const parsed = parseEvent(line);
        if (!parsed.ok || parsed.event.ladder !== ladder.id) continue;
        const at = eventInstant(parsed.event, calendar);
        if (!open) open = openingWindows(RULE_SETS[ladder.ruleSet], calendar, at);
        const step = dueCloses(open, calendar, at);
        closed.push(...step.due.map((w) => `${w.period}:${w.key}`));
        open = step.open;
      }
      closed.push(...dueCloses(open!, calendar, until).due.map((w) => `${w.period}:${w.key}`));
      expect(closed.length).toBeGreaterThan(50);
      expect(closed).toEqual(simulated.get(ladder.id));
    }
  });
});
