/**
 * `autofix demo` (the compiled CLI): the whole pipeline on the embedded sample with the scripted
 * model on loopback — no key, no GitHub, no network — and `demo --app` through `serve`, Redis and
 * the bundled fake GitHub.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { DEMO_FIXED_LINE } from '../../src/demo/sample.js';
import { freePort, runCli } from '../helpers/cli.js';
import { underLoad } from '../helpers/deadlines.js';
import { jest } from '@jest/globals';

// A hang guard for every test of this file (test/helpers/deadlines.ts).
jest.setTimeout(underLoad(180_000));

/** Would be sent to a real endpoint if the demo read the user's settings: it must not. */
const USER_ENV = {
  OPENAI_API_KEY: 'sk-user-canary-key-0123456789abcdefXY',
  // TEST-NET-1: unroutable. A request there would hang the run, not pass it.
  OPENAI_BASE_URL: 'http://192.0.2.1:9/v1',
  AUTOFIX_MODEL: 'gpt-user-model',
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'autofix-e2e-demo-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((p) => join(root, p))
    .filter((p) => statSync(p).isFile());
}

describe('autofix demo', () => {
  it('fixes the sample: a first diff that fails validation, one repair, PASS, and prints the diff', async () => {
    const r = await runCli(['demo', '--dir', join(dir, 'demo'), '--keep'], {
      env: USER_ENV,
      timeoutMs: underLoad(90_000),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Run run-\S+: SUCCESS$/m);
    expect(r.stdout).toMatch(/^Repairs: 1$/m);
    expect(r.stdout).toMatch(/^\s+PASS\s+exit 0\s+\d+ ms\s+node --test$/m);
    expect(r.stdout).toContain('fix(paginate): start page 1 at the first item');
    // The committed diff, from `git show <branch>`.
    expect(r.stdout).toContain('diff --git a/src/paginate.js b/src/paginate.js');
    expect(r.stdout).toContain(`+  ${DEMO_FIXED_LINE}`);
    expect(r.stdout).toContain('-  const start = page * perPage;');
    expect(r.stdout).toContain('broke "a page past the end is empty"');
    // Progress on stderr: validation failed once, then the repair passed.
    expect(r.stderr).toMatch(/repair 1\/2 after VALIDATION_FAILED/);
    // The model was the scripted one on loopback, never the user's endpoint, key or model.
    expect(r.stdout).toMatch(/model\s+scripted, http:\/\/127\.0\.0\.1:\d+\/v1/);
    const files = filesUnder(join(dir, 'demo', 'workdir', 'runs'));
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      expect(text).not.toContain(USER_ENV.OPENAI_API_KEY);
      expect(text).not.toContain(USER_ENV.AUTOFIX_MODEL);
    }
    // The sample repository stays, with the branch; the commands to look at it are printed.
    expect(r.stdout).toContain(`git -C ${join(dir, 'demo', 'pager')} log --oneline --all`);
  });

  it('without --keep removes the workspace cache but keeps the artifacts it lists; refuses a --dir that is not empty', async () => {
    const target = join(dir, 'demo');
    const r = await runCli(['demo', '--dir', target], { timeoutMs: underLoad(90_000) });
    expect(r.code).toBe(0);
    expect(readdirSync(target).sort()).toEqual(['artifacts', 'pager']);
    // Every file the report lists is still there.
    const artifacts = join(target, 'artifacts');
    expect(r.stdout).toContain(`Artifacts: ${artifacts}`);
    const listed = r.stdout
      .split('\n')
      .slice(r.stdout.split('\n').indexOf(`Artifacts: ${artifacts}`) + 1)
      .filter((l) => /^ {2}\S+$/.test(l))
      .map((l) => l.trim());
    expect(listed.length).toBeGreaterThan(3);
    expect(readdirSync(artifacts).sort()).toEqual(expect.arrayContaining(listed));

    const again = await runCli(['demo', '--dir', target]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`--dir ${target} is not empty`);
  });
});

describe('autofix demo --app', () => {
  it('runs through serve, Redis and the fake GitHub: prints each status-comment edit and the PR', async () => {
    const r = await runCli(['demo', '--app', '--dir', join(dir, 'demo')], {
      env: { ...USER_ENV, REDIS_URL: 'redis://127.0.0.1:6379' },
      timeoutMs: underLoad(150_000),
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/signed issues\.labeled webhook → 200/);
    // The status comment: posted, then edited stage by stage until the PR.
    expect(r.stdout).toMatch(/── comment on issue #7 by autofix-demo\[bot\], posted/);
    const edits = [...r.stdout.matchAll(/── comment on issue #7 by \S+, edit (\d+)/g)];
    expect(edits.length).toBeGreaterThanOrEqual(3);
    expect(r.stdout).toContain('### 🤖 Autofix is working on this');
    expect(r.stdout).toContain('### 🚀 Autofix opened a pull request');
    expect(r.stdout).toContain('**Validation** (passed after 1 repair');
    // The PR: title, branch, body, the pushed diff.
    expect(r.stdout).toMatch(/── pull request #\d+ opened by autofix-demo\[bot\] ──/);
    expect(r.stdout).toContain('title   fix(paginate): start page 1 at the first item');
    expect(r.stdout).toContain(
      'branch  autofix/fix/7-paginate-page-1-skips-the-first-ten-items → main',
    );
    expect(r.stdout).toContain('Fixes #7');
    expect(r.stdout).toContain(`+  ${DEMO_FIXED_LINE}`);
    // Everything on loopback; the user's key never reached anything.
    expect(r.stdout).toMatch(/GitHub\s+http:\/\/127\.0\.0\.1:\d+\/api\/v3/);
    expect(r.stdout).not.toContain(USER_ENV.OPENAI_API_KEY);
    // Its Redis keys are gone.
    const prefix = /deleted the Redis keys (autofix-demo-[0-9a-f]+):\*/.exec(r.stdout)?.[1];
    expect(prefix).toBeDefined();
    const redis = new Redis('redis://127.0.0.1:6379');
    try {
      expect(await redis.keys(`${prefix!}:*`)).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });

  it('says clearly when Redis is not reachable, and how to start it', async () => {
    const port = await freePort();
    const r = await runCli(['demo', '--app', '--dir', join(dir, 'demo')], {
      env: { REDIS_URL: `redis://127.0.0.1:${port}` },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Cannot reach Redis at REDIS_URL=redis://127.0.0.1:${port}`);
    expect(r.stderr).toContain('autofix demo --app needs Redis');
    expect(r.stderr).toContain('redis-server');
    expect(r.stderr).toContain('`autofix demo` (without --app) needs no Redis');
  });
});
