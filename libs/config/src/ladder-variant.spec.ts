import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_IN_LADDERS, type LadderConfig } from '@ranking/rating';
import { loadLadderVariant, variantSettings } from './ladder-variant.js';

const igame = BUILT_IN_LADDERS.find((l) => l.id === 'igame-gomoku')!;
let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'ladder-variant-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fileWith = (content: unknown): string => {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
};

describe('loadLadderVariant', () => {
  it("given the ladder's entry among others, then its settings replace the ladder's and omitted keys keep them", () => {
    const file = fileWith([
      { id: 'qq-gomoku', startRating: 999 },
      { id: 'igame-gomoku', startRating: 1500, rankedAfter: 10 },
    ]);
    expect(loadLadderVariant(igame, file)).toEqual({
      ...igame,
      startRating: 1500,
      rankedAfter: 10,
    });
  });

  it('given a ladder with params, then the entry changes only the params it names', () => {
    // RULES.md "Rule-set parameters": a ladder's `params` override rule-set defaults by name.
    const base = { ...igame, params: { eloScale: 400, floor: 100 } } as LadderConfig;
    expect(variantSettings(base, { id: 'igame-gomoku', params: { floor: 50 } })).toEqual({
      ...igame,
      params: { eloScale: 400, floor: 50 },
    });
    // A built-in ladder holds every parameter, resolved: the entry's one replaces its own.
    expect(variantSettings(igame, { id: 'igame-gomoku', params: { floor: 50 } })).toEqual({
      ...igame,
      params: { ...igame.params, floor: 50 },
    });
    const variant = loadLadderVariant(
      igame,
      fileWith([{ id: 'igame-gomoku', params: { floor: 50 } }]),
    );
    expect(variant.params).toEqual({ ...igame.params, floor: 50 });
  });

  it.each([
    ['not JSON', '{', /^F: .*JSON/],
    ['not an array', { id: 'igame-gomoku' }, /^F: must hold a JSON array of ladders$/],
    ['no entry for the ladder', [{ id: 'qq-gomoku' }], /^F: no entry for ladder igame-gomoku$/],
    [
      'two entries for the ladder',
      [{ id: 'igame-gomoku' }, { id: 'igame-gomoku' }],
      /^F: 2 entries for ladder igame-gomoku$/,
    ],
    [
      'a bad setting',
      [{ id: 'igame-gomoku', rankedAfter: 0 }],
      /^F: ladder "igame-gomoku": rankedAfter must be a whole number >= 1, or null$/,
    ],
  ])('given %s, then one line naming the file and what is wrong', (_, content, message) => {
    const file = fileWith(content);
    let thrown: Error | undefined;
    try {
      loadLadderVariant(igame, file);
    } catch (error) {
      thrown = error as Error;
    }
    expect(thrown?.message.replace(file, 'F')).toMatch(message);
    expect(thrown?.message).not.toContain('\n');
  });

  it('given no such file, then one line naming it', () => {
    expect(() => loadLadderVariant(igame, join(dir, 'missing.json'))).toThrow(/missing\.json/);
  });
});
