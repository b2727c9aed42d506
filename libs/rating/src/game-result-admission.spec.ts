import { MAX_VALUE_BYTES } from '@ranking/contracts';
import { ladderRegistry, GameResultAdmission, ReplayEngine } from '@ranking/rating';

// CONTRACT.md "Transport": what the intake lets a game server put on the ladder log.

const LADDERS = ladderRegistry();
const admission = new GameResultAdmission(LADDERS);
/** A game server that may write every ladder (and one the registry lacks, for unknown-ladder). */
const GS = { name: 'gs', ladders: [...LADDERS.keys(), 'chess-960'] };
const bytes = (value: unknown): Buffer =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');

const game = (extra: Record<string, unknown> = {}) => ({
  id: 'gs:1',
  type: 'game.finished',
  ladder: 'igame-gomoku',
  gameId: 'g-1',
  finishedAt: '2026-11-29T13:05:00+08:00',
  moves: 41,
  players: [
    { id: 'alice', result: 'win', ip: '203.0.113.7' },
    { id: 'bob', result: 'loss', ip: '198.51.100.2' },
  ],
  ...extra,
});

const codeOf = (value: Buffer | null) => {
  const decided = admission.admit(value, GS);
  return decided.admitted ? 'admitted' : decided.rejection.code;
};

describe('GameResultAdmission (the intake decision)', () => {
  it('Given a valid game.finished, When a game server sends it, Then it is admitted under its ladder', () => {
    const decided = admission.admit(bytes(game()), GS);
    expect(decided).toMatchObject({ admitted: true, ladder: 'igame-gomoku' });
  });

  it('Given a game the rules void (same IP), When sent, Then it is admitted: void is not rejection', () => {
    const players = [
      { id: 'alice', result: 'win', ip: '203.0.113.7' },
      { id: 'bob', result: 'loss', ip: '203.0.113.7' },
    ];
    expect(codeOf(bytes(game({ players })))).toBe('admitted');
  });

  it.each([
    [
      'game.corrected',
      {
        type: 'game.corrected',
        ladder: 'igame-gomoku',
        gameId: 'g-1',
        correctedAt: '2026-11-29T14:00:00+08:00',
        void: true,
        note: 'x',
      },
    ],
    [
      'player.penalized',
      {
        type: 'player.penalized',
        ladder: 'igame-gomoku',
        player: 'alice',
        points: -5000,
        reason: 'disconnects',
        at: '2026-11-29T14:00:00+08:00',
      },
    ],
    [
      'player.annulled',
      {
        type: 'player.annulled',
        ladder: 'igame-gomoku',
        player: 'bob',
        since: '2000-01-01T00:00:00Z',
        annulledAt: '2026-11-29T14:00:00+08:00',
        note: 'x',
      },
    ],
    [
      'period.closed',
      {
        type: 'period.closed',
        ladder: 'igame-gomoku',
        period: 'daily',
        key: '2099-12-30',
        start: '2099-12-30T06:00:00+08:00',
        end: '2099-12-31T06:00:00+08:00',
      },
    ],
  ])('Given a valid %s, When a game server sends it, Then it is not-permitted', (type, event) => {
    const decided = admission.admit(bytes({ id: 'gs:x-1', ...event }), GS);
    expect(decided).toMatchObject({
      admitted: false,
      id: 'gs:x-1',
      rejection: { code: 'not-permitted' },
    });
    if (!decided.admitted) expect(decided.rejection.detail).toContain(type);
  });

  it.each([
    'period.closed:igame-gomoku:weekly:2026-W49',
    'player.penalized:igame-gomoku:alice:1',
    'player.annulled:x',
    'game.corrected:x',
    'game.finished:x',
    'annulment:igame-gomoku:1',
  ])(
    'Given a game.finished whose id is the reserved %s, When sent, Then it is not-permitted',
    (id) => {
      expect(codeOf(bytes(game({ id })))).toBe('not-permitted');
    },
  );

  it.each([
    'gs:period.closed',
    'gs:annulment-1',
    'gs:period.closed:x',
    'gs:annulment:x',
    'gs:game.finished',
  ])('Given an id %s that only looks like a reserved one, When sent, Then it is admitted', (id) => {
    expect(codeOf(bytes(game({ id })))).toBe('admitted');
  });

  it('Given the fold’s own rejections, When sent to the intake, Then each has the fold’s code', () => {
    const cases: [Buffer | null, string][] = [
      [null, 'invalid-json'],
      [bytes('{"id":'), 'invalid-json'],
      [bytes(game({ moves: 'many' })), 'invalid-event'],
      [bytes(game({ ladder: 'chess-960' })), 'unknown-ladder'],
      [
        bytes(
          game({
            players: [
              { id: 'alice', result: 'win' },
              { id: 'bob', result: 'loss' },
              { id: 'carol', result: 'loss' },
            ],
          }),
        ),
        'wrong-player-count',
      ],
      [
        bytes(
          game({
            players: [
              { id: 'alice', result: 'win' },
              { id: 'alice', result: 'loss' },
            ],
          }),
        ),
        'duplicate-player',
      ],
      [
        bytes(
          game({
            players: [
              { id: 'alice', result: 'win' },
              { id: 'bob', result: 'win' },
            ],
          }),
        ),
        'inconsistent-result',
      ],
    ];
    for (const [value, code] of cases) {
      expect(codeOf(value)).toBe(code);
      // The same code the offline replay gives the same line.
      if (value === null) continue;
      const replay = new ReplayEngine(LADDERS);
      const result = replay.ingestLine(value.toString('utf8'));
      expect(result.kind === 'rejected' ? result.reason : result.kind).toBe(code);
    }
  });

  it('Given a privileged type that also fails the schema, When sent, Then the schema speaks first (invalid-event)', () => {
    expect(codeOf(bytes({ id: 'p', type: 'player.penalized', ladder: 'igame-gomoku' }))).toBe(
      'invalid-event',
    );
  });

  describe('the producer (CONTRACT.md "Transport", Producers)', () => {
    const gomoku = { name: 'gomoku-eu-1', ladders: ['igame-gomoku'] };
    const decide = (event: Record<string, unknown>) => admission.admit(bytes(game(event)), gomoku);

    it('Given a game of its ladder under its namespace, When the producer sends it, Then it is admitted', () => {
      expect(decide({ id: 'gomoku-eu-1:g-20261129-000123' })).toMatchObject({
        admitted: true,
        ladder: 'igame-gomoku',
      });
    });

    it.each([
      ['another producer’s namespace', 'gomoku-eu-2:g-1'],
      ['a namespace the name only begins', 'gomoku-eu-1x:g-1'],
      ['no namespace', 'g-1'],
      ['the name without its colon', 'gomoku-eu-1-g-1'],
    ])(
      'Given an id in %s, When sent, Then it is not-permitted and names the namespace',
      (_, id) => {
        const decided = decide({ id });
        expect(decided).toMatchObject({
          admitted: false,
          id,
          rejection: { code: 'not-permitted' },
        });
        if (!decided.admitted) expect(decided.rejection.detail).toContain('"gomoku-eu-1:"');
      },
    );

    it.each(['qq-gomoku', 'chess-960'])(
      'Given a game of the ladder %s, not the producer’s, When sent, Then it is not-permitted (known or not)',
      (ladder) => {
        const decided = decide({ id: 'gomoku-eu-1:g-1', ladder });
        expect(decided).toMatchObject({ admitted: false, rejection: { code: 'not-permitted' } });
        if (!decided.admitted) expect(decided.rejection.detail).toContain(ladder);
      },
    );

    it('Given a reserved id, When sent by a producer, Then the reserved id speaks first', () => {
      const decided = decide({ id: 'period.closed:igame-gomoku:daily:2026-12-04' });
      expect(decided.admitted ? '' : decided.rejection.detail).toMatch(/reserved/);
    });

    it('Given a privileged type in the producer’s namespace, When sent, Then it is not-permitted for its type', () => {
      const decided = admission.admit(
        bytes({
          id: 'gomoku-eu-1:p-1',
          type: 'player.penalized',
          ladder: 'igame-gomoku',
          player: 'alice',
          points: -5000,
          reason: 'disconnects',
          at: '2026-11-29T14:00:00+08:00',
        }),
        gomoku,
      );
      expect(decided.admitted ? '' : decided.rejection.detail).toMatch(/player\.penalized/);
    });

    it('Given a producer with no ladder, When it sends anything, Then it is not-permitted', () => {
      const none = admission.admit(bytes(game({ id: 'idle:g-1' })), { name: 'idle', ladders: [] });
      expect(none).toMatchObject({ admitted: false, rejection: { code: 'not-permitted' } });
    });
  });

  describe('the size limit, decided before decoding', () => {
    /** A game.finished padded to exactly `size` bytes through its gameId. */
    const ofSize = (size: number, pad: string): Buffer => {
      const base = bytes(game({ gameId: '' }));
      const room = size - base.length;
      const unit = Buffer.byteLength(pad);
      const text = pad.repeat(Math.floor(room / unit)) + 'x'.repeat(room % unit);
      const value = bytes(game({ gameId: text }));
      expect(value.length).toBe(size);
      return value;
    };

    it.each([
      ['ASCII', 'a'],
      ['CJK', '圍'],
    ])(
      'Given %s values of 65,536 and 65,537 bytes, When sent, Then the first is read and the second is invalid-event with a null id',
      (_, pad) => {
        const limit = admission.admit(ofSize(MAX_VALUE_BYTES, pad), GS);
        // Read past the size check: the schema decides on what it holds (gameId is long).
        expect(limit.admitted ? 'admitted' : limit.rejection.detail).not.toMatch(/bytes/);
        const over = admission.admit(ofSize(MAX_VALUE_BYTES + 1, pad), GS);
        expect(over).toMatchObject({
          admitted: false,
          id: null,
          rejection: { code: 'invalid-event' },
        });
        if (!over.admitted) expect(over.rejection.detail).toMatch(/65537 bytes/);
      },
    );

    it('Given an oversized value that is not even UTF-8, When sent, Then it is still invalid-event (size first)', () => {
      const value = Buffer.alloc(MAX_VALUE_BYTES + 1, 0xff);
      expect(codeOf(value)).toBe('invalid-event');
    });
  });
});
