import type { INestApplication } from '@nestjs/common';
import type { PeriodClosed } from '@ranking/contracts';
import { ladderRegistry } from '@ranking/rating';
import { MaintenanceScenario, waitFor } from '@ranking/testing';
import { ManualClock } from './clock.js';
import { MaintenanceServiceModule } from './maintenance-service.module.js';
import { PeriodTicker } from './period-ticker.js';

const ladders = ladderRegistry();

const game = (id: string, ladder: string, finishedAt: string) =>
  JSON.stringify({
    id,
    type: 'game.finished',
    ladder,
    gameId: id,
    finishedAt,
    moves: 40,
    players: [
      { id: 'a', result: 'win', ip: '10.0.0.1' },
      { id: 'b', result: 'loss', ip: '10.0.0.2' },
    ],
  });

/** The period clock against the real broker and database, driven by a clock the test sets. */
describe('maintenance service: period clock (real Kafka and PostgreSQL)', () => {
  const scenario = new MaintenanceScenario(ladders);
  const clock = new ManualClock('2026-12-20T00:00:00+08:00');
  let app: INestApplication | null = null;
  const start = () =>
    scenario.startInProcess((env) => MaintenanceServiceModule.forRoot(env, ladders, clock));

  beforeAll(() => scenario.setUp());
  afterAll(async () => {
    await app?.close();
    await scenario.tearDown();
  });

  const closes = (ladder: string) =>
    scenario.published
      .filter((e): e is PeriodClosed => e.type === 'period.closed' && e.ladder === ladder)
      .map((e) => `${e.period}:${e.key}`);

  /** Sets the clock, runs a tick, and waits until its decisions are on the topic. */
  async function moveTo(at: string): Promise<void> {
    clock.set(at);
    await app!.get(PeriodTicker).tick();
    await waitFor(() => scenario.outboxEmpty(), { what: 'the outbox to empty' });
  }

  async function expectCloses(shanghai: string[], taipei: string[]): Promise<void> {
    await waitFor(
      () =>
        closes('qq-gomoku').length >= shanghai.length &&
        closes('igame-gomoku').length >= taipei.length,
      { what: 'the closes to arrive' },
    );
    expect(closes('qq-gomoku')).toEqual(shanghai);
    expect(closes('igame-gomoku')).toEqual(taipei);
  }

  it('given no event yet, when time passes many closes, then nothing is published', async () => {
    app = await start();
    await moveTo('2026-12-26T08:00:00+08:00');
    expect(await scenario.world.db.query('SELECT * FROM maintenance_clocks')).toEqual([]);
    expect(scenario.published).toEqual([]);
  });

  it('given a game on an Asia/Shanghai and an Asia/Taipei ladder, when 06:00 local plus the grace passes, then each day, week 53, the month and the year close once, in order', async () => {
    await scenario.world.produce([
      game('s1', 'qq-gomoku', '2026-12-26T10:00:00+08:00'),
      game('t1', 'igame-gomoku', '2026-12-26T10:00:00+08:00'),
    ]);
    await waitFor(
      async () => (await scenario.world.db.query('SELECT * FROM maintenance_clocks')).length === 4,
      { what: 'the clocks to start' },
    );
    // The grace delay (120 s): a millisecond before it runs out nothing is due.
    await moveTo('2026-12-27T06:01:59.999+08:00');
    await expectCloses([], []);
    await moveTo('2026-12-27T06:02:00+08:00');
    await expectCloses(['daily:2026-12-26'], ['daily:2026-12-26']);
    // Monday 28 December 06:00 ends ISO week 52 on i.Game (weekly before daily).
    await moveTo('2026-12-28T06:02:00+08:00');
    const day27 = ['daily:2026-12-26', 'daily:2026-12-27'];
    await expectCloses(day27, ['daily:2026-12-26', 'weekly:2026-W52', 'daily:2026-12-27']);
    // New year: the month closes on 1 January 06:00, before the day that ends then.
    await moveTo('2027-01-01T06:02:00+08:00');
    const toNewYear = [
      ...day27,
      'daily:2026-12-28',
      'daily:2026-12-29',
      'daily:2026-12-30',
      'daily:2026-12-31',
    ];
    const taipeiToNewYear = [
      'daily:2026-12-26',
      'weekly:2026-W52',
      'daily:2026-12-27',
      'daily:2026-12-28',
      'daily:2026-12-29',
      'daily:2026-12-30',
      'monthly:2026-12',
      'daily:2026-12-31',
    ];
    await expectCloses(toNewYear, taipeiToNewYear);
    // 2026 has an ISO week 53: it ends on Monday 4 January 2027 06:00.
    await moveTo('2027-01-04T06:02:00+08:00');
    await expectCloses(
      [...toNewYear, 'daily:2027-01-01', 'daily:2027-01-02', 'daily:2027-01-03'],
      [
        ...taipeiToNewYear,
        'daily:2027-01-01',
        'daily:2027-01-02',
        'weekly:2026-W53',
        'daily:2027-01-03',
      ],
    );
    const w53 = scenario.published.find(
      (e) => e.id === 'period.closed:igame-gomoku:weekly:2026-W53',
    );
    expect(w53).toEqual({
      id: 'period.closed:igame-gomoku:weekly:2026-W53',
      type: 'period.closed',
      ladder: 'igame-gomoku',
      period: 'weekly',
      key: '2026-W53',
      start: '2026-12-28T06:00:00+08:00',
      end: '2027-01-04T06:00:00+08:00',
    });
    // The schedule endpoint shows what comes next.
    const url = await app!.getUrl();
    const schedule = (await (await fetch(`${url}/schedule`)).json()) as {
      ladders: Record<
        string,
        { period: string; key: string; closesAt: string; publishAfter: string }[]
      >;
    };
    expect(schedule.ladders['igame-gomoku']).toEqual([
      {
        period: 'daily',
        key: '2027-01-04',
        closesAt: '2027-01-05T06:00:00+08:00',
        publishAfter: '2027-01-05T06:02:00+08:00',
      },
      {
        period: 'weekly',
        key: '2027-W01',
        closesAt: '2027-01-11T06:00:00+08:00',
        publishAfter: '2027-01-11T06:02:00+08:00',
      },
      {
        period: 'monthly',
        key: '2027-01',
        closesAt: '2027-02-01T06:00:00+08:00',
        publishAfter: '2027-02-01T06:02:00+08:00',
      },
    ]);
    // Readiness also needs a fresh lag measurement (every 5 s): it may take a moment.
    const health = await waitFor(
      async () => {
        const answer = await fetch(`${url}/health`);
        return answer.status === 200 ? answer : undefined;
      },
      { timeout: 30_000, interval: 200, what: 'the service to be ready' },
    );
    expect(await health.json()).toMatchObject({
      status: 'ok',
      info: {
        postgres: { status: 'up' },
        kafka: { status: 'up' },
        consumer: { status: 'up', quarantined: 0 },
      },
    });
  });

  it('given the service down for a week, when it starts again, then it publishes every missed close once, oldest first', async () => {
    await app!.close();
    app = null;
    const before = scenario.published.length;
    clock.set('2027-01-11T09:00:00+08:00');
    app = await start();
    const missedDays = ['04', '05', '06', '07', '08', '09', '10'].map((d) => `daily:2027-01-${d}`);
    // Weekly 2027-W01 closes on Monday 11 January 06:00, with the day of the 10th: weekly first.
    const taipei = [...missedDays.slice(0, 6), 'weekly:2027-W01', 'daily:2027-01-10'];
    await waitFor(() => scenario.published.length >= before + missedDays.length * 2 + 1, {
      what: 'the missed closes',
    });
    await waitFor(() => scenario.outboxEmpty(), { what: 'the outbox to empty' });
    const after = scenario.published.slice(before);
    const of = (ladder: string) =>
      after
        .filter((e): e is PeriodClosed => e.type === 'period.closed' && e.ladder === ladder)
        .map((e) => `${e.period}:${e.key}`);
    expect(of('qq-gomoku')).toEqual(missedDays);
    expect(of('igame-gomoku')).toEqual(taipei);
    expect(after).toHaveLength(missedDays.length * 2 + 1);
  });
});
