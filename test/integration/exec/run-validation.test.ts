import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runValidation } from '../../../src/exec/run-validation.js';
import { DEFAULT_REPO_CONFIG, type RepoConfig } from '../../../src/config/repo-config.js';
import { basicSandboxPolicy, type SandboxMode } from '../../../src/exec/sandbox-policy.js';

const policy = (mode: SandboxMode, extra: Parameters<typeof basicSandboxPolicy>[1] = {}) =>
  basicSandboxPolicy(mode, extra);

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

  it('under bwrap, setup reaches only hosts the operator allows (through the proxy); validate reaches nothing', async () => {
    const curl = (host: string) =>
      `curl -sS -o /dev/null -w '%{http_code}' http://${host}:${port}/`;
    const direct = `node -e "require('http').get('http://127.0.0.1:${port}/', (r) => process.exit(r.statusCode === 200 ? 0 : 2)).on('error', (e) => { console.error(e.code); process.exit(3); })"`;
    const trusted = policy('bwrap', { trustedHosts: [`localhost:${port}`] });
    const run = await runValidation(
      config({ setup: [curl('localhost'), direct], validate: [] }),
      worktree,
      { sandbox: trusted },
    );
    // curl through the proxy to the operator's trusted host works; a direct connection does not.
    expect(run.results.map((r) => [r.exit_code, r.sandboxed])).toEqual([
      [0, true],
      [3, true],
    ]);
    expect(run.results[0]!.stdout).toBe('200');
    expect(run.results[1]!.stderr).toMatch(/ECONNREFUSED|ENETUNREACH/);

    // Not trusted by the operator: the same loopback host is refused and reported.
    const refused = await runValidation(config({ setup: [curl('localhost')] }), worktree, {
      sandbox: policy('bwrap'),
    });
    expect(refused.results[0]!.stdout).toBe('403');
    expect(refused.blocked).toEqual([expect.objectContaining({ host: 'localhost', port })]);
    expect(refused.warnings.join(' ')).toMatch(/network_allow/);

    const validate = await runValidation(config({ validate: [direct] }), worktree, {
      sandbox: trusted,
    });
    expect(validate.results[0]!.exit_code).toBe(3);
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
            validate: ['env'],
            env_passthrough: ['ALLOWED_ONE', 'OPENAI_API_KEY'],
          }),
          worktree,
          { sandbox: policy(sandbox) },
        );
        expect(run.passed).toBe(true);
        const out = run.results[0]!.stdout;
        expect(out).not.toMatch(/sentinel/);
        // Passed through, and masked wherever the output goes (the repository's own secret).
        expect(out).toContain('ALLOWED_ONE=****ue');
        expect(out).not.toContain('visible-value');
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
          // Toolchains under the worker's HOME and, as root, git's safe.directory for the sandbox.
          'CARGO_HOME',
          'RUSTUP_HOME',
          'PYENV_ROOT',
          'GIT_CONFIG_COUNT',
          'GIT_CONFIG_KEY_0',
          'GIT_CONFIG_VALUE_0',
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
        setup: ['echo setup-1'],
        validate: ['echo check-1', "sh -c 'echo check-2 failing; exit 4'", 'echo never'],
      }),
      worktree,
      { sandbox: policy('none'), onResult: (r, phase) => calls.push(`${phase}:${r.command}`) },
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
      runValidation(config({ setup: ['touch ran'], validate: ['npm test && echo hi'] }), worktree, {
        sandbox: policy('none'),
      }),
    ).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(worktree, 'ran'))).toBe(false);
  });

  it('fails closed when bubblewrap cannot run: SANDBOX_UNAVAILABLE, nothing runs, no fallback', async () => {
    const { resetSandboxProbe } = await import('../../../src/exec/sandbox.js');
    const { existsSync } = await import('node:fs');
    try {
      await expect(
        runValidation(config({ setup: ['touch ran'], validate: ['true'] }), worktree, {
          sandbox: policy('bwrap', { bwrapPath: '/nonexistent/bwrap' }),
        }),
      ).rejects.toMatchObject({ code: 'SANDBOX_UNAVAILABLE' });
      expect(existsSync(join(worktree, 'ran'))).toBe(false);
    } finally {
      resetSandboxProbe();
    }
  });

  it('says so in every result when the operator turned the sandbox off', async () => {
    const run = await runValidation(config({ validate: ['true'] }), worktree, {
      sandbox: policy('none'),
    });
    expect(run.results[0]!.sandboxed).toBe(false);
    expect(run.warnings).toEqual([
      expect.stringMatching(/WITHOUT a sandbox.*AUTOFIX_SANDBOX=none/),
    ]);
  });

  it('names the user, not the operator, when a command-line flag turned it off', async () => {
    const run = await runValidation(config({ validate: ['true'] }), worktree, {
      sandbox: { ...policy('none'), disabledBy: 'the user ran autofix with --sandbox none' },
    });
    expect(run.warnings).toEqual([
      'Repository commands ran WITHOUT a sandbox: the user ran autofix with --sandbox none, so setup and validation could read and write whatever the worker can and reach any network address.',
    ]);
  });

  it('times out a hanging command and reports it as failed', async () => {
    const run = await runValidation(
      { ...config({ validate: ['sleep 30'] }), command_timeout_seconds: 1 },
      worktree,
      { sandbox: policy('none'), killGraceMs: 500 },
    );
    expect(run.passed).toBe(false);
    expect(run.results[0]!.timed_out).toBe(true);
  });
});
