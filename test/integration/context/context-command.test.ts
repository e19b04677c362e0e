import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contextCommand } from '../../../src/bin/commands/context.js';
import { generateRepo, TARGET } from '../../helpers/generate-repo.js';

let root: string;
let out: string[];
let err: string[];
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'autofix-ctx-cli-'));
  await generateRepo(join(root, 'repo'), 80, { git: true });
  await writeFile(join(root, 'issue.md'), `Late fees are charged twice, see ${TARGET}.`);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
// The command prints with console.log/error: capture them (through globalThis, as tests may not use console).
const io = globalThis.console;
const original = { log: io.log, error: io.error };
beforeEach(() => {
  out = [];
  err = [];
  io.log = (s: string) => void out.push(s);
  io.error = (s: string) => void err.push(s);
  process.exitCode = undefined;
});
afterEach(() => {
  io.log = original.log;
  io.error = original.error;
  process.exitCode = undefined;
});

const run = (...args: string[]) =>
  contextCommand().exitOverride().parseAsync(args, { from: 'user' });

describe('autofix context', () => {
  it('prints the ranking with scores and the token count', async () => {
    await run(
      '--repo',
      join(root, 'repo'),
      '--issue-file',
      join(root, 'issue.md'),
      '--budget',
      '3000',
    );
    const text = out.join('\n');
    expect(text).toMatch(/Repository .*: 80 text files \(tracked by git\)/);
    expect(text).toMatch(
      new RegExp(`\\n\\s+1\\s+\\d+\\.\\d\\d\\s+whole\\s+${TARGET}\\n\\s+named in the issue`),
    );
    expect(text).toMatch(/Context: [\d,]+ of 3,000 tokens \(o200k\)/);
  });

  it('prints JSON with --json', async () => {
    await run(
      '--repo',
      join(root, 'repo'),
      '--issue-file',
      join(root, 'issue.md'),
      '--json',
      '--top',
      '3',
    );
    const report = JSON.parse(out.join('\n')) as {
      ranking: { path: string; score: number; inContext: string }[];
      tokens: number;
      budget: number;
    };
    expect(report.ranking).toHaveLength(3);
    expect(report.ranking[0]).toMatchObject({ path: TARGET, inContext: 'whole' });
    expect(report.budget).toBe(12_000);
    expect(report.tokens).toBeLessThanOrEqual(12_000);
  });

  it('exits 2 when the issue file cannot be read', async () => {
    await run('--repo', join(root, 'repo'), '--issue-file', join(root, 'missing.md'));
    expect(process.exitCode).toBe(2);
    expect(err.join('\n')).toMatch(/cannot read --issue-file/);
  });
});
