import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Environment, loadEnvironment, OPTIONAL_VARIABLES } from './environment.js';

/** `.env.example` at the repository root: every variable it lists, set or commented out. */
const example = readFileSync('.env.example', 'utf8');
const listed = new Map<string, { value: string; optional: boolean }>();
for (const line of example.split('\n')) {
  const m = /^(# )?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
  if (m) listed.set(m[2]!, { value: m[3]!, optional: m[1] !== undefined });
}

/** Every variable libs/config reads: the Environment's fields, and any `process.env.X` in it. */
function variablesConfigReads(): Set<string> {
  const names = new Set<string>([...Object.keys(new Environment()), ...OPTIONAL_VARIABLES]);
  const dir = 'libs/config/src';
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.includes('.spec.')))
    for (const m of readFileSync(join(dir, file), 'utf8').matchAll(
      /process\.env(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g,
    ))
      names.add(m[1] ?? m[2]!);
  return names;
}

/** What bin/ranking.js reads of its own (the CLI's heap settings). */
function variablesTheLauncherReads(): Set<string> {
  const text = readFileSync('bin/ranking.js', 'utf8');
  return new Set([...text.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!));
}

describe('.env.example', () => {
  it('lists every variable libs/config reads', () => {
    const missing = [...variablesConfigReads()].filter((name) => !listed.has(name));
    expect(missing).toEqual([]);
  });

  it("lists the CLI launcher's variables, and nothing nobody reads", () => {
    const launcher = variablesTheLauncherReads();
    expect([...launcher].filter((name) => !listed.has(name))).toEqual([]);
    const known = new Set([...variablesConfigReads(), ...launcher]);
    expect([...listed.keys()].filter((name) => !known.has(name))).toEqual([]);
  });

  it('gives each variable a one-line comment just above it', () => {
    const lines = example.split('\n');
    for (const [i, line] of lines.entries())
      if (/^(# )?[A-Z][A-Z0-9_]*=/.test(line))
        expect(`${line} <- ${lines[i - 1] ?? ''}`).toMatch(/ <- # (?![A-Z][A-Z0-9_]*=)\S/);
  });

  it('sets only values the services accept, each the default they take when it is unset', () => {
    const set = Object.fromEntries(
      [...listed].filter(([, v]) => !v.optional).map(([name, v]) => [name, v.value]),
    );
    expect(() => loadEnvironment(set)).not.toThrow();
    const defaults = new Environment() as unknown as Record<string, unknown>;
    const differing = Object.entries(set).filter(
      ([name, value]) => name in defaults && String(defaults[name]) !== value,
    );
    expect(differing).toEqual([]);
    for (const name of OPTIONAL_VARIABLES)
      expect([name, listed.get(name)?.optional]).toEqual([name, true]);
  });
});
