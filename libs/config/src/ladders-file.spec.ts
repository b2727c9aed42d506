import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ladderRegistry } from '@ranking/rating';
import { ConfigError } from './environment.js';
import { loadLadders, readLaddersFile } from './ladders-file.js';

const dir = mkdtempSync(join(tmpdir(), 'ladders-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** The ConfigError a load throws. */
function failure(load: () => unknown): ConfigError {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('the file was accepted');
}

describe('RANKING_LADDERS_FILE', () => {
  it('Given no file, Then the built-in ladders', () => {
    expect(loadLadders({})).toEqual(ladderRegistry());
  });

  it('Given a file that replaces a built-in ladder’s params, Then the services get that ladder', () => {
    const path = file(
      'ok.json',
      JSON.stringify([{ id: 'igame-gomoku', params: { weeklyQuota: 5 } }]),
    );
    const ladders = loadLadders({ RANKING_LADDERS_FILE: path });
    expect(ladders.get('igame-gomoku')!.params).toMatchObject({ weeklyQuota: 5, floor: 100 });
    expect(ladders.size).toBe(ladderRegistry().size);
  });

  it('Given a K table without its final row, Then one line names the variable, the ladder and the parameter', () => {
    const path = file(
      'bad.json',
      JSON.stringify([{ id: 'igame-gomoku', params: { k: [{ below: 2100, k: 32 }] } }]),
    );
    const error = failure(() => loadLadders({ RANKING_LADDERS_FILE: path }));
    expect(error.message).toBe(
      `RANKING_LADDERS_FILE=${JSON.stringify(path)}: ladder "igame-gomoku" param "k": the last row must have no "below"`,
    );
  });

  it('Given a file that is not JSON or not an array, Then one line says so', () => {
    const broken = file('broken.json', '[{"id": ');
    expect(failure(() => loadLadders({ RANKING_LADDERS_FILE: broken })).message).toMatch(
      /^RANKING_LADDERS_FILE=".*broken\.json": .*JSON/,
    );
    const object = file('object.json', '{"id": "x"}');
    expect(failure(() => loadLadders({ RANKING_LADDERS_FILE: object })).message).toBe(
      `RANKING_LADDERS_FILE=${JSON.stringify(object)}: must hold a JSON array of ladders`,
    );
    expect(
      failure(() => loadLadders({ RANKING_LADDERS_FILE: join(dir, 'missing.json') })).message,
    ).toMatch(/^RANKING_LADDERS_FILE=".*missing\.json": ENOENT/);
  });

  it('Given the CLI’s option, Then the same check names the option instead', () => {
    const path = file(
      'quota.json',
      JSON.stringify([{ id: 'igame-gomoku', params: { weeklyQuota: -1 } }]),
    );
    expect(failure(() => readLaddersFile(path, `--ladders ${path}`)).message).toBe(
      `--ladders ${path}: ladder "igame-gomoku" param "weeklyQuota": must be >= 0`,
    );
  });
});
