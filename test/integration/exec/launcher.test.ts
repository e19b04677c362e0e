/**
 * The process launcher (src/exec/launcher/): our own short commands (git, chown) start from a
 * small helper process instead of a fork of the worker. Real processes throughout: what a
 * command answers, a command that cannot start, a timeout, the launcher killed mid-command, and
 * that it neither ends a process early nor keeps an idle one alive.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { launch, launcherPid, LaunchError } from '../../../src/exec/launcher/launcher.js';
import { runGit } from '../../../src/git/run-git.js';
import { underLoad } from '../../helpers/deadlines.js';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const sh = (script: string, extra: Partial<Parameters<typeof launch>[0]> = {}) =>
  launch({
    file: 'sh',
    args: ['-c', script],
    cwd: '/',
    env,
    timeoutMs: underLoad(10_000),
    ...extra,
  });

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('process launcher', () => {
  it('answers what the command wrote, its exit code, and gives it its input, cwd and env only', async () => {
    process.env.AUTOFIX_LAUNCHER_TEST_SECRET = 'not-for-commands';
    try {
      const r = await sh('cat; pwd; echo "[$AUTOFIX_LAUNCHER_TEST_SECRET]$X" >&2; exit 3', {
        input: 'from stdin\n',
        cwd: '/tmp',
        env: { ...env, X: 'given' },
      });
      expect(r.stdout.toString()).toBe('from stdin\n/tmp\n');
      expect(r.stderr.toString()).toBe('[]given\n');
      expect(r).toMatchObject({ code: 3, signal: null, timedOut: false });
      // The launcher itself holds nothing of the worker's environment (tokens travel per request).
      const environ = readFileSync(`/proc/${launcherPid()}/environ`, 'utf8').split('\0');
      const names = environ.filter(Boolean).map((e) => e.split('=')[0]);
      // Node's own IPC settings besides PATH.
      expect(names.filter((n) => !n!.startsWith('NODE_CHANNEL_'))).toEqual(['PATH']);
    } finally {
      delete process.env.AUTOFIX_LAUNCHER_TEST_SECRET;
    }
  });

  it('carries binary output and many commands at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => sh(`head -c ${100_000 + i} /dev/zero`)),
    );
    results.forEach((r, i) => {
      expect(r.stdout.length).toBe(100_000 + i);
      expect(r.stdout.every((b) => b === 0)).toBe(true);
    });
  });

  it('a command that cannot start is an error naming it', async () => {
    await expect(
      launch({ file: 'no-such-command-autofix', args: [], cwd: '/', env, timeoutMs: 5000 }),
    ).rejects.toThrow(LaunchError);
    await expect(runGit(['status'], { cwd: '/no/such/dir/autofix' })).rejects.toThrow(
      /git could not start: .*ENOENT/,
    );
  });

  it('kills a command at its deadline and says so', async () => {
    const r = await sh('sleep 60', { timeoutMs: 200 });
    expect(r).toMatchObject({ timedOut: true, signal: 'SIGKILL' });
  });

  it('a command in flight when the launcher dies fails saying so; the next command works', async () => {
    await sh('true');
    const first = launcherPid()!;
    const running = sh('sleep 60');
    process.kill(first, 'SIGKILL');
    await expect(running).rejects.toThrow(
      /process launcher exited \(SIGKILL\) while the command ran/,
    );
    const r = await sh('echo again');
    expect(r.stdout.toString()).toBe('again\n');
    expect(launcherPid()).not.toBe(first);
    expect(alive(first)).toBe(false);
  });

  it('outlives a stop signal to the process group (the worker may still run git while it stops)', async () => {
    await sh('true');
    const pid = launcherPid()!;
    const running = sh('sleep 0.5; echo finished');
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.kill(pid, signal);
    expect((await running).stdout.toString()).toBe('finished\n');
    expect(launcherPid()).toBe(pid);
  });

  it('keeps a process alive while a command runs, and lets it exit when idle', async () => {
    const module = fileURLToPath(
      new URL('../../../dist/src/exec/launcher/launcher.js', import.meta.url),
    );
    // Nothing but the command in flight holds this process open; after it, nothing at all.
    const script = `import(${JSON.stringify(module)}).then(async (m) => {
      const r = await m.launch({ file: 'sh', args: ['-c', 'sleep 0.3; echo done'], cwd: '/',
        env: { PATH: process.env.PATH }, timeoutMs: 60000 });
      process.stdout.write(r.stdout.toString() + m.launcherPid() + '\\n');
    });`;
    const { stdout: out } = await promisify(execFile)(process.execPath, ['-e', script], {
      timeout: underLoad(15_000),
    });
    const [said, pid] = out.trim().split('\n');
    expect(said).toBe('done');
    // Its launcher went with it (its channel closed).
    const deadline = Date.now() + underLoad(5000);
    while (alive(Number(pid)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(alive(Number(pid))).toBe(false);
  });
});
