/**
 * One list of the environment (src/config/env-vars.ts) and everything that repeats it: the
 * variables the code reads (env.ts's schema, the options commander fills from the environment,
 * any `env.NAME` in src/config and src/bin), `.env.example` and the README.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDotEnv } from '../../../src/config/dotenv.js';
import { envSchema } from '../../../src/config/env.js';
import { ENV_VARS } from '../../../src/config/env-vars.js';
import { buildProgram } from '../../../src/bin/program.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const listed = ENV_VARS.map((v) => v.name);
const ofCode = ENV_VARS.filter((v) => !v.readBy.includes('compose')).map((v) => v.name);

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(ROOT, dir, f));
}

describe('the environment variables (src/config/env-vars.ts)', () => {
  it('lists each variable once', () => {
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('are exactly the ones the code reads', () => {
    const commander = buildProgram()
      .commands.flatMap((c) => c.options.map((o) => o.envVar))
      .filter((name): name is string => name !== undefined);
    const read = new Set([...Object.keys(envSchema.shape), ...commander]);
    expect([...ofCode].sort()).toEqual([...read].sort());
  });

  it('hold every env.NAME that src/config and src/bin read', () => {
    const names = new Set<string>();
    for (const file of [...sourceFiles('src/config'), ...sourceFiles('src/bin')]) {
      const text = readFileSync(file, 'utf8');
      // Read, not written: `env.NO_SMEE_SETUP = 'true'` tells Probot something, it reads nothing.
      for (const m of text.matchAll(
        /\benv\??\.([A-Z][A-Z0-9_]+)\b(?!\s*=[^=])|\.env\('([A-Z0-9_]+)'\)/g,
      ))
        names.add(m[1] ?? m[2]!);
    }
    expect([...names].filter((n) => !listed.includes(n))).toEqual([]);
  });

  it('are all in .env.example, grouped: the required set, the optional commented out', () => {
    const text = readFileSync(join(ROOT, '.env.example'), 'utf8');
    expect(parseDotEnv(text).problems).toEqual([]);
    const lines = text.split('\n');
    const at = (heading: RegExp) => lines.findIndex((l) => heading.test(l));
    const required = at(/^# === Required =/);
    const compose = at(/^# === Required with docker compose =/);
    const optional = at(/^# === Optional/);
    expect(required).toBeGreaterThanOrEqual(0);
    expect(compose).toBeGreaterThan(required);
    expect(optional).toBeGreaterThan(compose);
    const where = new Map<string, { line: number; commented: boolean }[]>();
    lines.forEach((line, i) => {
      const m = /^(# )?([A-Z][A-Z0-9_]+)=/.exec(line);
      if (m) where.set(m[2]!, [...(where.get(m[2]!) ?? []), { line: i, commented: !!m[1] }]);
    });
    expect([...where.keys()].sort()).toEqual([...listed].sort());
    for (const v of ENV_VARS) {
      const [place, ...more] = where.get(v.name)!;
      expect({ name: v.name, more }).toEqual({ name: v.name, more: [] });
      const section =
        place!.line > optional ? 'optional' : place!.line > compose ? 'compose' : 'required';
      expect({ name: v.name, section, commented: place!.commented }).toEqual({
        name: v.name,
        section: v.group,
        commented: v.group === 'optional',
      });
    }
  });

  it('are all in the README', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(listed.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });
});
