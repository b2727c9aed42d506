import { generateEvents } from '@ranking/generator';
import {
  BUILT_IN_LADDERS,
  type LadderConfig,
  ladderRegistry,
  parseLadders,
  ReplayEngine,
  resolveParams,
  RULE_SET_NAMES,
  RULE_SETS,
} from './index.js';

// RULES.md "Rule-set parameters" and CONTRACT.md "Offline replay" (--ladders): a ladders file
// adds ladders or replaces built-in ones by id; omitted keys keep the rule set's or the
// built-in ladder's values; a bad entry is one line naming the ladder and the parameter.

const NEW = {
  id: 'qq-gomoku-swap3',
  ruleSet: 'qq-points',
  startRating: 0,
  timezone: 'Asia/Shanghai',
  rankedAfter: 1,
};

/** The one-line error a registry of these entries throws. */
function errorOf(entries: unknown[]): string {
  try {
    ladderRegistry(entries);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the entries were accepted');
}

describe('ladder registry: entries', () => {
  it('Given no entries, Then the built-in ladders with the rule sets’ defaults', () => {
    const ladders = ladderRegistry();
    expect([...ladders.values()]).toEqual(BUILT_IN_LADDERS);
    for (const ladder of ladders.values())
      expect(ladder.params).toBe(RULE_SETS[ladder.ruleSet].params.defaults);
  });

  it('Given an entry with a built-in id and params only, Then it keeps the built-in settings and takes the params', () => {
    const igame = ladderRegistry([{ id: 'igame-gomoku', params: { weeklyQuota: 5 } }]).get(
      'igame-gomoku',
    )!;
    const builtIn = ladderRegistry().get('igame-gomoku')!;
    expect(igame).toEqual({
      ...builtIn,
      params: { ...builtIn.params, weeklyQuota: 5 },
    });
  });

  it('Given an entry with a built-in id and settings, Then those replace the built-in ones', () => {
    const ladder = ladderRegistry([
      { id: 'qq-xiangqi', startRating: 1500, rankedAfter: null, timezone: 'Asia/Taipei' },
    ]).get('qq-xiangqi')!;
    expect(ladder).toMatchObject({
      ruleSet: 'qq-elo',
      startRating: 1500,
      precision: 1,
      timezone: 'Asia/Taipei',
      rankedAfter: null,
    });
  });

  it('Given a new ladder without precision, Then it takes that of its rule set’s built-in ladder', () => {
    const ladders = ladderRegistry([
      NEW,
      { ...NEW, id: 'qq-fifty-k-casual', ruleSet: 'card-points' },
    ]);
    expect(ladders.get('qq-gomoku-swap3')).toMatchObject({
      precision: 1,
      params: { flatGap: 100 },
    });
    expect(ladders.get('qq-fifty-k-casual')).toMatchObject({ precision: 0.5 });
    expect(ladders.size).toBe(BUILT_IN_LADDERS.length + 2);
  });

  it('Given params, When resolved, Then the ladder holds them frozen (one resolution for every game)', () => {
    const ladder = ladderRegistry([{ ...NEW, params: { basePoints: 12 } }]).get(NEW.id)!;
    expect(Object.isFrozen(ladder.params)).toBe(true);
    expect(Object.keys(ladder.params)).toEqual(Object.keys(RULE_SETS['qq-points'].params.defaults));
  });

  it.each(RULE_SET_NAMES)(
    'Given the %s defaults written out in full, Then they validate and resolve to themselves',
    (name) => {
      const declaration = RULE_SETS[name].params;
      const written = JSON.parse(JSON.stringify(declaration.defaults)) as Record<string, unknown>;
      expect(resolveParams(declaration, name, written)).toEqual(declaration.defaults);
    },
  );

  it('Given every built-in ladder replaced by one with every default written out, When a log is replayed, Then the output is the same byte for byte', () => {
    const replaced = ladderRegistry(
      BUILT_IN_LADDERS.map((l) => ({ id: l.id, params: JSON.parse(JSON.stringify(l.params)) })),
    );
    const render = (ladders: ReadonlyMap<string, LadderConfig>) => {
      const engine = new ReplayEngine(ladders, { simulate: true });
      for (const line of generateEvents({ seed: 5, events: 6000, correctionShare: 0.02 }))
        engine.ingestLine(line);
      engine.finish(Date.parse('2027-01-01T06:00:00+08:00'));
      return [...engine.render()].join('');
    };
    expect(render(replaced)).toBe(render(ladderRegistry()));
  });
});

describe('ladder registry: a bad entry is one line naming the ladder and the parameter', () => {
  it.each<[string, Record<string, unknown>, string]>([
    [
      'a K table without its final row',
      { ruleSet: 'igame-elo', params: { k: [{ below: 2100, k: 32 }] } },
      'ladder "x" param "k": the last row must have no "below"',
    ],
    [
      'a K table with an open row before the last',
      { ruleSet: 'qq-elo', params: { k: [{ k: 60 }, { below: 1400, k: 30 }, { k: 10 }] } },
      'ladder "x" param "k": row 1 must have "below" (only the last has none)',
    ],
    [
      'K thresholds out of order',
      {
        ruleSet: 'qq-elo',
        params: { k: [{ below: 1400, k: 60 }, { below: 1000, k: 120 }, { k: 10 }] },
      },
      'ladder "x" param "k": row 2: "below" must be greater than the row before',
    ],
    [
      'a fractional K',
      { ruleSet: 'igame-elo', params: { k: [{ k: 32.5 }] } },
      'ladder "x" param "k": row 1: "k" must be a whole number',
    ],
    [
      'an empty K table',
      { ruleSet: 'igame-elo', params: { k: [] } },
      'ladder "x" param "k": must have at least one row',
    ],
    [
      'a K table that is a number',
      { ruleSet: 'igame-elo', params: { k: 32 } },
      'ladder "x" param "k": must be a list of rows',
    ],
    [
      'a K row with a misspelt field',
      { ruleSet: 'igame-elo', params: { k: [{ k: 32, K: 32 }] } },
      'ladder "x" param "k": row 1: "K" is not allowed',
    ],
    [
      'an unknown parameter',
      { ruleSet: 'igame-elo', params: { kFactor: 32 } },
      'ladder "x" param "kFactor": is not a parameter of igame-elo',
    ],
    [
      'a parameter of another rule set',
      { ruleSet: 'qq-points', params: { weeklyQuota: 5 } },
      'ladder "x" param "weeklyQuota": is not a parameter of qq-points',
    ],
    [
      'a parameter on record-only',
      { ruleSet: 'record-only', params: { basePoints: 5 } },
      'ladder "x" param "basePoints": is not a parameter of record-only',
    ],
    [
      'a negative quota',
      { ruleSet: 'igame-elo', params: { weeklyQuota: -1 } },
      'ladder "x" param "weeklyQuota": must be >= 0',
    ],
    [
      'a fractional move count',
      { ruleSet: 'qq-elo', params: { minMoves: 2.5 } },
      'ladder "x" param "minMoves": must be a whole number',
    ],
    [
      'a negative streak',
      { ruleSet: 'igame-elo', params: { cleanStreak: -3 } },
      'ladder "x" param "cleanStreak": must be >= 0',
    ],
    [
      'a penalty given as text',
      { ruleSet: 'igame-elo', params: { weeklyPenalty: '-30' } },
      'ladder "x" param "weeklyPenalty": must be a number',
    ],
    [
      'a zero divisor',
      { ruleSet: 'qq-points', params: { gapDivisor: 0 } },
      'ladder "x" param "gapDivisor": must be > 0',
    ],
    [
      'no captures per level',
      { ruleSet: 'xinbo-points', params: { capturesPerLevel: 0 } },
      'ladder "x" param "capturesPerLevel": must be >= 1',
    ],
    [
      'rescale boundaries out of order',
      {
        ruleSet: 'igame-elo',
        params: {
          rescale: [
            { boundary: 2400, up: 0.66, down: 1.5 },
            { boundary: 2100, up: 0.75, down: 1.33 },
          ],
        },
      },
      'ladder "x" param "rescale": row 2: "boundary" must be greater than the row before',
    ],
    [
      'a rescale row without its down factor',
      { ruleSet: 'igame-elo', params: { rescale: [{ boundary: 2100, up: 0.75 }] } },
      'ladder "x" param "rescale": row 1: "down" is required',
    ],
    [
      'brackets that skip levels',
      {
        ruleSet: 'xinbo-points',
        params: {
          brackets: [
            { weakest: 14, strongest: 10, win: 12, loss: 0 },
            { weakest: 8, strongest: 1, win: 20, loss: -10 },
          ],
        },
      },
      'ladder "x" param "brackets": row 2: "weakest" must be 9 (levels 14 to 1, each once, weakest first)',
    ],
    [
      'brackets that stop short of 1级',
      {
        ruleSet: 'xinbo-points',
        params: { brackets: [{ weakest: 14, strongest: 5, win: 12, loss: 0 }] },
      },
      'ladder "x" param "brackets": the last row must end at level 1 (levels 14 to 1, each once)',
    ],
    [
      'params that are not an object',
      { ruleSet: 'igame-elo', params: [1, 2] },
      'ladder "x": params must be an object of parameters by name',
    ],
    [
      'an unknown rule set',
      { ruleSet: 'go-elo' },
      'ladder "x": ruleSet must be one of qq-points, igame-elo, record-only, qq-elo, xinbo-points, squares, card-points',
    ],
    [
      'a misspelt setting',
      { ruleSet: 'igame-elo', parms: { k: [{ k: 8 }] } },
      'ladder "x": "parms" is not a ladder setting (one of id, ruleSet, startRating, precision, timezone, rankedAfter, params)',
    ],
  ])('Given %s, Then it is refused', (_name, entry, message) => {
    const error = errorOf([{ ...NEW, id: 'x', ...entry }]);
    expect(error).toBe(message);
    expect(error).not.toContain('\n');
  });

  it('Given a built-in id with a bad parameter, Then the line names that ladder', () => {
    expect(errorOf([{ id: 'igame-gomoku', params: { disconnectLimit: -1 } }])).toBe(
      'ladder "igame-gomoku" param "disconnectLimit": must be >= 0',
    );
  });

  it('Given a new ladder without a start rating, Then the line names the setting', () => {
    const { startRating: _, ...entry } = NEW;
    expect(errorOf([entry])).toBe('ladder "qq-gomoku-swap3": startRating must be a number');
  });

  it('Given the same id twice, Then the second is refused', () => {
    expect(errorOf([{ id: 'qq-gomoku' }, { id: 'qq-gomoku', startRating: 5 }])).toBe(
      'ladder "qq-gomoku": id appears twice',
    );
  });

  it('Given a file that is not an array, Then parseLadders says so', () => {
    expect(() => parseLadders('{"id": "x"}')).toThrow('must hold a JSON array of ladders');
    expect(() => parseLadders('[')).toThrow(SyntaxError);
  });
});
