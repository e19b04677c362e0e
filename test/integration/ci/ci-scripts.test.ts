/**
 * The machine set-up scripts of `npm run up` and CI, run for real with stand-ins for the system
 * commands they call (apt-get, redis): `.ci/apt-install` waits, and says so, while another
 * process holds the package lock, and passes apt-get a lock timeout; `.ci/ensure-services` says
 * when it sets a global git identity.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, waitFor } from '../../helpers/cli.js';

let dir: string;
let bin: string;

function stub(name: string, body: string): void {
  writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(bin, name), 0o755);
}

/** Runs a script with the stand-ins first on PATH and `dir` as HOME. */
function start(args: string[], env: Record<string, string> = {}) {
  const child = spawn('bash', [join(REPO_ROOT, args[0]!), ...args.slice(1)], {
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: dir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (out += b.toString()));
  const done = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { output: () => out, done };
}

const until = (check: () => boolean) => waitFor(() => Promise.resolve(check() || undefined));

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'autofix-ci-scripts-'));
  bin = join(dir, 'bin');
  mkdirSync(bin);
  // As root, so that no real sudo runs the real apt-get.
  stub('id', 'echo 0');
  stub('apt-get', `echo "$*" >> ${JSON.stringify(join(dir, 'apt-get.log'))}`);
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('.ci/apt-install', () => {
  let holder: ChildProcess | undefined;
  afterEach(() => {
    holder?.kill();
    holder = undefined;
  });

  it('waits while another process holds the package lock, says so, then installs', async () => {
    const lock = join(dir, 'lock-frontend');
    writeFileSync(lock, '');
    // `flock FILE cat` holds the lock until its stdin closes.
    holder = spawn('flock', [lock, 'cat'], { stdio: ['pipe', 'ignore', 'ignore'] });
    const pid = holder.pid!;
    await until(() => readFileSync('/proc/locks', 'utf8').includes(` ${pid} `));
    const run = start(['.ci/apt-install', 'wrk'], {
      APT_LOCKS: lock,
      APT_LOCK_WAIT_SECONDS: '120',
    });
    await until(() => run.output().includes('waiting for another package manager'));
    expect(run.output()).toContain(`process ${pid} (flock) holds ${lock}`);
    expect(() => readFileSync(join(dir, 'apt-get.log'))).toThrow(); // nothing before the lock is free
    holder.stdin!.end();
    expect(await run.done).toBe(0);
    expect(run.output()).toMatch(/the package locks are free after \d+s/);
    const calls = readFileSync(join(dir, 'apt-get.log'), 'utf8').trim().split('\n');
    expect(calls).toHaveLength(2);
    for (const call of calls) expect(call).toMatch(/^-o DPkg::Lock::Timeout=\d+ /);
    expect(calls[1]).toMatch(/ install .* wrk$/);
  }, 60_000);

  it('says nothing of a lock nobody holds', async () => {
    const lock = join(dir, 'lock');
    writeFileSync(lock, '');
    const run = start(['.ci/apt-install', 'wrk'], { APT_LOCKS: lock });
    expect(await run.done).toBe(0);
    expect(run.output()).toBe('');
  });
});

describe('.ci/ensure-services', () => {
  beforeEach(() => {
    // Every tool present (no install) and a Redis that answers: only the git identity is left.
    for (const tool of ['redis-server', 'bwrap', 'patch']) stub(tool, 'exit 0');
    stub('redis-cli', 'echo PONG');
  });

  it('says so when it sets a global git identity, and only then', async () => {
    // Never the real ~/.gitconfig, whatever the test's own environment says.
    const env = { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(dir, '.gitconfig') };
    const first = start(['.ci/ensure-services'], env);
    expect(await first.done).toBe(0);
    expect(first.output()).toMatch(
      /^ensure-services: set a global git identity .* ~\/\.gitconfig: Autofix <autofix@localhost\.invalid>/m,
    );
    expect(readFileSync(join(dir, '.gitconfig'), 'utf8')).toContain('name = Autofix');
    const again = start(['.ci/ensure-services'], env);
    expect(await again.done).toBe(0);
    expect(again.output()).toBe('');
  });
});
