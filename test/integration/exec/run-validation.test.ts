import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runValidation } from '../../../src/exec/run-validation.js';
import { DEFAULT_REPO_CONFIG, type RepoConfig } from '../../../src/config/repo-config.js';

const config = (over: Partial<RepoConfig>): RepoConfig => ({ ...DEFAULT_REPO_CONFIG, ...over });

describe('runValidation', () => {
  let worktree: string;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((_req, res) => res.end('hello'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });
  beforeEach(async () => {
    worktree = await realpath(await mkdtemp(join(tmpdir(), 'autofix-val-')));
  });
  afterEach(async () => {
    await rm(worktree, { recursive: true, force: true });
  });

  it('under bwrap, setup can reach a loopback server and validate cannot', async () => {
    const fetchCmd = `node -e "require('http').get('http://127.0.0.1:${port}/', (r) => process.exit(r.statusCode === 200 ? 0 : 2)).on('error', (e) => { console.error(e.code); process.exit(3); })"`;
    const run = await runValidation(
      config({ sandbox: 'bwrap', setup: [fetchCmd], validate: [fetchCmd] }),
      worktree,
    );
    expect(run.results.map((r) => [r.exit_code, r.sandboxed])).toEqual([
      [0, true],
      [3, true],
    ]);
    expect(run.results[1]!.stderr).toMatch(/ECONNREFUSED|ENETUNREACH/);
    expect(run.passed).toBe(false);
    expect(run.failed?.phase).toBe('validate');
  });

  it('keeps secrets of the worker environment away from a validate command printing env', async () => {
    // Set in the worker's own environment, which the runner reads by default.
    const sentinels = {
      OPENAI_API_KEY: 'sk-sentinel-openai-0001',
      GITHUB_TOKEN: 'ghs_sentinelgithubtoken000000001',
      REDIS_URL: 'redis://:sentinel-redis-pass@h:6379',
      PRIVATE_KEY: 'sentinel-private-key',
      SOME_OTHER_SECRET: 'sentinel-other',
      ALLOWED_ONE: 'visible-value',
    };
    const saved = Object.fromEntries(Object.keys(sentinels).map((k) => [k, process.env[k]]));
    Object.assign(process.env, sentinels);
    try {
      for (const sandbox of ['bwrap', 'none'] as const) {
        const run = await runValidation(
          config({
            sandbox,
            validate: ['env'],
            env_passthrough: ['ALLOWED_ONE', 'OPENAI_API_KEY'],
          }),
          worktree,
        );
        expect(run.passed).toBe(true);
        const out = run.results[0]!.stdout;
        expect(out).not.toMatch(/sentinel/);
        expect(out).toContain('ALLOWED_ONE=visible-value');
        expect(out).toContain('CI=true');
        // Only the allowlist (plus what the shell itself adds) is there.
        const names = out
          .trim()
          .split('\n')
          .map((l) => l.split('=')[0]!);
        const allowed = [
          'PATH',
          'HOME',
          'LANG',
          'TMPDIR',
          'CI',
          'ALLOWED_ONE',
          'PWD',
          'SHLVL',
          '_',
        ];
        expect(names.filter((n) => !allowed.includes(n))).toEqual([]);
      }
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('runs setup then validate and stops at the first failure', async () => {
    const calls: string[] = [];
    const run = await runValidation(
      config({
        sandbox: 'none',
        setup: ['echo setup-1'],
        validate: ['echo check-1', "sh -c 'echo check-2 failing; exit 4'", 'echo never'],
      }),
      worktree,
      { onResult: (r, phase) => calls.push(`${phase}:${r.command}`) },
    );
    expect(run.passed).toBe(false);
    expect(run.results.map((r) => r.exit_code)).toEqual([0, 0, 4]);
    expect(run.failed?.result.command).toBe("sh -c 'echo check-2 failing; exit 4'");
    expect(calls).toEqual([
      'setup:echo setup-1',
      'validate:echo check-1',
      "validate:sh -c 'echo check-2 failing; exit 4'",
    ]);
  });

  it('refuses a config command with shell operators before running anything', async () => {
    await expect(
      runValidation(
        config({ sandbox: 'none', setup: ['touch ran'], validate: ['npm test && echo hi'] }),
        worktree,
      ),
    ).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(worktree, 'ran'))).toBe(false);
  });

  it('carries the sandbox fallback warning when auto cannot use bwrap', async () => {
    const { resetSandboxProbe } = await import('../../../src/exec/sandbox.js');
    try {
      const run = await runValidation(config({ sandbox: 'auto', validate: ['true'] }), worktree, {
        bwrapPath: '/nonexistent/bwrap',
      });
      expect(run.passed).toBe(true);
      expect(run.results[0]!.sandboxed).toBe(false);
      expect(run.warnings).toHaveLength(1);
      expect(run.warnings[0]).toMatch(/without a sandbox/);
    } finally {
      resetSandboxProbe();
    }
  });

  it('times out a hanging command and reports it as failed', async () => {
    const run = await runValidation(
      { ...config({ sandbox: 'none', validate: ['sleep 30'] }), command_timeout_seconds: 1 },
      worktree,
      { killGraceMs: 500 },
    );
    expect(run.passed).toBe(false);
    expect(run.results[0]!.timed_out).toBe(true);
  });
});
