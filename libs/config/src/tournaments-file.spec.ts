import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ladderRegistry } from '@ranking/rating';
import { ConfigError, loadEnvironment } from './environment.js';
import { loadTournaments } from './tournaments-file.js';

const dir = mkdtempSync(join(tmpdir(), 'tournaments-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const LADDERS = ladderRegistry();
const cup = {
  id: 'spring-cup',
  ladder: 'qq-gomoku',
  groups: [
    { id: 'g1', players: ['a', 'b', 'c'] },
    { id: 'g2', players: ['d', 'e', 'f'] },
  ],
  advancement: { perGroup: 2, playoff: { group: 'po', places: 1 } },
};

describe('RANKING_TOURNAMENTS_FILE', () => {
  it('is read from the environment', () => {
    expect(loadEnvironment({ RANKING_TOURNAMENTS_FILE: '/etc/t.json' })).toMatchObject({
      RANKING_TOURNAMENTS_FILE: '/etc/t.json',
    });
  });

  it('gives no tournaments when unset', () => {
    expect(loadTournaments({}, LADDERS)).toEqual([]);
  });

  it('loads and checks the tournaments of the file', () => {
    const path = file('ok.json', JSON.stringify([cup]));
    const [loaded] = loadTournaments({ RANKING_TOURNAMENTS_FILE: path }, LADDERS);
    expect(loaded).toMatchObject({ id: 'spring-cup', advancement: { perGroup: 2 } });
  });

  it.each([
    ['not JSON', '[{', /^RANKING_TOURNAMENTS_FILE=".*bad-0\.json": /],
    ['not an array', '{}', /: must hold a JSON array of tournaments$/],
    [
      'an unknown ladder',
      JSON.stringify([{ ...cup, ladder: 'qq-go' }]),
      /: tournament spring-cup: ladder "qq-go" is not a configured ladder$/,
    ],
  ])('stops on %s with one line naming the variable', (_name, text, message) => {
    const path = file(`bad-${_name === 'not JSON' ? 0 : _name.length}.json`, text);
    let error: unknown;
    try {
      loadTournaments({ RANKING_TOURNAMENTS_FILE: path }, LADDERS);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('stops on a missing file, naming the variable', () => {
    expect(() =>
      loadTournaments({ RANKING_TOURNAMENTS_FILE: join(dir, 'missing.json') }, LADDERS),
    ).toThrow(/^RANKING_TOURNAMENTS_FILE=".*missing\.json": ENOENT/);
  });
});
