import { mkdtemp, realpath, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedactor } from '../../../src/artifacts/redact.js';
import { processGroupMembers } from '../../../src/exec/process-group.js';
import { runCommand } from '../../../src/exec/run-command.js';
import { basicSandboxPolicy } from '../../../src/exec/sandbox-policy.js';

const NONE = basicSandboxPolicy('none');
const BWRAP = basicSandboxPolicy('bwrap');
const policy = (mode: 'none' | 'bwrap') => (mode === 'none' ? NONE : BWRAP);

describe('runCommand', () => {
  let worktree: string;

  beforeEach(async () => {
    worktree = await realpath(await mkdtemp(join(tmpdir(), 'autofix-exec-')));
  });
  afterEach(async () => {
    await rm(worktree, { recursive: true, force: true });
  });

  it.each(['none', 'bwrap'] as const)(
    'kills the whole process group on timeout (sandbox %s)',
    async (sandbox) => {
      const pidFile = join(worktree, 'pids');
      const result = await runCommand(['sh', '-c', `echo $$ > ${pidFile}; sleep 999 & sleep 999`], {
        worktree,
        timeoutMs: 2000,
        sandbox: policy(sandbox),
        killGraceMs: 1000,
      });
      expect(result.timed_out).toBe(true);
      expect(result.exit_code).toBeNull();
      expect(result.duration_ms).toBeGreaterThanOrEqual(2000);
      expect(result.duration_ms).toBeLessThan(8000);
      expect(result.stderr).toContain('timed out after 2000 ms');
      // Nothing of the command survives: no live process is left in the group, nor any `sleep 999`.
      const leftovers = (processGroupMembers(process.pid) ?? []).filter((p) => p !== process.pid);
      expect(leftovers).toEqual([]);
      const { execFileSync } = await import('node:child_process');
      const ps = execFileSync('ps', ['-eo', 'stat=,args=']).toString();
      const alive = ps.split('\n').filter((l) => /sleep 999/.test(l) && !l.startsWith('Z'));
      expect(alive).toEqual([]);
    },
  );

  it('kills background processes a command leaves behind when it exits', async () => {
    const result = await runCommand(['sh', '-c', 'sleep 777 & echo started'], {
      worktree,
      timeoutMs: 10_000,
      sandbox: NONE,
    });
    expect(result.exit_code).toBe(0);
    expect(result.stdout).toBe('started\n');
    const { execFileSync } = await import('node:child_process');
    const ps = execFileSync('ps', ['-eo', 'stat=,args=']).toString();
    expect(ps.split('\n').filter((l) => /sleep 777/.test(l) && !l.startsWith('Z'))).toEqual([]);
  });

  it('ends the group when the abort signal fires', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300); // the abort is the thing under test
    const result = await runCommand(['sleep', '30'], {
      worktree,
      timeoutMs: 60_000,
      signal: controller.signal,
      sandbox: NONE,
    });
    expect(result.signal).toBe('SIGTERM');
    expect(result.timed_out).toBe(false);
    expect(result.duration_ms).toBeLessThan(5000);
  });

  it('caps 50 MB of output, keeps head and tail, and still reports the exit code', async () => {
    const result = await runCommand(
      [
        'sh',
        '-c',
        'echo first; yes abcdefgh | head -c 52428800; echo; echo last; echo oops >&2; exit 3',
      ],
      { worktree, timeoutMs: 30_000, sandbox: BWRAP, maxOutputBytes: 64 * 1024 },
    );
    expect(result.exit_code).toBe(3);
    expect(result.timed_out).toBe(false);
    expect(result.stdout.length).toBeLessThan(70 * 1024);
    expect(result.stdout.startsWith('first\n')).toBe(true);
    expect(result.stdout.endsWith('last\n')).toBe(true);
    const marker = /\[… autofix cut (\d+) bytes of stdout \((\d+) bytes in all\) …\]/.exec(
      result.stdout,
    );
    expect(Number(marker?.[2])).toBe(6 + 52428800 + 1 + 5);
    expect(Number(marker?.[1])).toBeGreaterThan(52428800 - 64 * 1024);
    expect(result.stderr).toBe('oops\n');
  });

  it('redacts secrets from the command line and both streams', async () => {
    const redact = createRedactor(['sentinel-secret-value-77']);
    const result = await runCommand(
      ['sh', '-c', 'echo sentinel-secret-value-77; echo sentinel-secret-value-77 >&2'],
      { worktree, timeoutMs: 10_000, sandbox: NONE, redact },
    );
    expect(result.stdout).toBe('****77\n');
    expect(result.stderr).toBe('****77\n');
    expect(result.command).not.toContain('sentinel-secret-value-77');
  });

  it('strips colour codes from both streams before redacting (a secret split by them is still masked)', async () => {
    const redact = createRedactor(['sentinel-secret-value-77']);
    const result = await runCommand(
      [
        'sh',
        '-c',
        "printf '\\033[31mFAIL\\033[0m sentinel-\\033[1msecret-value-77\\n'; printf '\\033[2K\\033[1Gdone\\n' >&2",
      ],
      { worktree, timeoutMs: 10_000, sandbox: NONE, redact },
    );
    expect(result.stdout).toBe('FAIL ****77\n');
    expect(result.stderr).toBe('done\n');
  });

  it('runs in a subdirectory of the worktree but refuses one outside it', async () => {
    await mkdir(join(worktree, 'pkg'));
    const inside = await runCommand(['pwd'], {
      worktree,
      cwd: 'pkg',
      timeoutMs: 5000,
      sandbox: NONE,
    });
    expect(inside.stdout.trim()).toBe(join(worktree, 'pkg'));
    await expect(
      runCommand(['pwd'], { worktree, cwd: '..', timeoutMs: 5000, sandbox: NONE }),
    ).rejects.toThrow('outside the worktree');
    await expect(
      runCommand(['pwd'], { worktree, cwd: '/etc', timeoutMs: 5000, sandbox: NONE }),
    ).rejects.toThrow('outside the worktree');
  });

  it.each(['none', 'bwrap'] as const)(
    'reports a missing program as exit 127 (%s)',
    async (sandbox) => {
      const result = await runCommand(['no-such-program-xyz'], {
        worktree,
        timeoutMs: 5000,
        sandbox: policy(sandbox),
      });
      expect(result.exit_code).toBe(127);
      expect(result.stderr).toMatch(/no-such-program-xyz/);
    },
  );

  it('under bwrap: read-only root, writable worktree, private /tmp', async () => {
    const marker = join(tmpdir(), `autofix-marker-${process.pid}`);
    await writeFile(marker, 'outside');
    try {
      const result = await runCommand(
        [
          'sh',
          '-c',
          `echo ok > f.txt && cat f.txt; touch /usr/autofix-x 2>/dev/null || echo ro; test -e ${marker} || echo private-tmp; echo "$TMPDIR"`,
        ],
        { worktree, timeoutMs: 10_000, sandbox: BWRAP },
      );
      expect(result.sandboxed).toBe(true);
      expect(result.stdout).toBe('ok\nro\nprivate-tmp\n/tmp\n');
    } finally {
      await rm(marker, { force: true });
    }
  });
});
