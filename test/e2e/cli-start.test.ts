/**
 * A command loads only what it uses (issue #15): `--help` and `apply-patch` start without Probot,
 * BullMQ, Redis, the OpenAI SDK or the logger. Behaviour, not time: `npm run bench:cli-start`
 * measures the time.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli, type CliResult } from '../helpers/cli.js';
import { createRepo } from '../helpers/repo-builder.js';

const RECORDER = fileURLToPath(new URL('../fixtures/record-modules.mjs', import.meta.url));

/** Packages no light command may load. */
const HEAVY = [
  'probot',
  'bullmq',
  'ioredis',
  'openai',
  'pino',
  'express',
  '@octokit/rest',
  '@bull-board/api',
  'prom-client',
  'js-tiktoken',
];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'autofix-cli-start-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI and returns, with its result, the npm packages and our own modules it loaded. */
async function loaded(
  args: string[],
  name: string,
  env: Record<string, string> = {},
): Promise<CliResult & { packages: Set<string>; ours: string[] }> {
  const out = join(dir, `${name}.modules`);
  const r = await runCli(args, {
    env: { ...env, NODE_OPTIONS: `--import ${RECORDER}`, RECORD_MODULES_TO: out },
  });
  const urls = readFileSync(out, 'utf8').split('\n').filter(Boolean);
  const packages = new Set(
    urls
      .map((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1])
      .filter((p): p is string => p !== undefined),
  );
  const ours = urls
    .map((u) => /\/dist\/(src\/.*)$/.exec(u)?.[1])
    .filter((p): p is string => p !== undefined);
  return { ...r, packages, ours };
}

describe('autofix start-up', () => {
  it('--help loads commander and the command declarations only', async () => {
    const r = await loaded(['--help'], 'help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: autofix');
    expect([...r.packages]).toEqual(['commander']);
    // No action module: those are loaded when their command runs.
    expect(r.ours.filter((p) => p.startsWith('src/bin/actions/'))).toEqual([]);
    // env-vars.ts (the `Environment:` sections) is data that imports nothing.
    expect(r.ours.filter((p) => !p.startsWith('src/bin/')).sort()).toEqual([
      'src/config/env-vars.js',
      'src/errors.js',
    ]);
  });

  it.each([['serve'], ['worker'], ['run'], ['work-order']])(
    '%s --help loads none of the heavy packages',
    async (command) => {
      const r = await loaded([command, '--help'], `${command}-help`);
      expect(r.code).toBe(0);
      expect([...r.packages]).toEqual(['commander']);
    },
  );

  it('apply-patch loads the edit engine but none of the heavy packages', async () => {
    const repo = createRepo({
      root: dir,
      name: 'repo',
      files: { 'a.txt': 'one\ntwo\nthree\n' },
      commit: false,
    }).dir;
    const patch = join(dir, 'change.diff');
    writeFileSync(patch, '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n');
    const r = await loaded(['apply-patch', '--repo', repo, '--patch', patch], 'apply-patch');
    expect(r.code).toBe(0);
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('one\n2\nthree\n');
    expect(r.ours).toContain('src/bin/actions/apply-patch.js');
    expect(HEAVY.filter((p) => r.packages.has(p))).toEqual([]);
  });

  it('serve loads what it needs once it runs (the recorder sees packages)', async () => {
    // Guards the test itself: serve's action is loaded, then stops at the invalid PORT.
    const r = await loaded(['serve'], 'serve', { PORT: 'abc' });
    expect(r.code).toBe(2);
    expect(r.ours).toContain('src/bin/actions/serve.js');
    expect(r.packages.has('probot')).toBe(true);
  });
});
