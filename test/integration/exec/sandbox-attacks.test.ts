/**
 * Issue #11, tried as an attacker would: the command is what an LLM-written test or a hostile
 * `postinstall` would run during validation, here with real bubblewrap and — in CI — as root.
 * Each case asserts that the attack failed and that a legitimate command still works.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand, type RunCommandOptions } from '../../../src/exec/run-command.js';
import { resetSandboxProbe } from '../../../src/exec/sandbox.js';
import { basicSandboxPolicy } from '../../../src/exec/sandbox-policy.js';

const isRoot = process.getuid?.() === 0;
const BWRAP = basicSandboxPolicy('bwrap');

let worktree: string;
let scratch: string;

beforeEach(() => {
  worktree = realpathSync(mkdtempSync(join(tmpdir(), 'autofix-attack-wt-')));
  // Outside /tmp (the sandbox's /tmp is private anyway, which would hide things by accident).
  scratch = mkdtempSync(join('/var/lib', 'autofix-attack-'));
});
afterEach(() => {
  rmSync(worktree, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
  resetSandboxProbe();
});

const sh = (script: string, extra: Partial<RunCommandOptions> = {}) =>
  runCommand(['sh', '-c', script], {
    worktree,
    timeoutMs: 20_000,
    sandbox: BWRAP,
    ...extra,
  });

describe('the sandbox as an attacker meets it', () => {
  it('runs repository code unprivileged: no root, no capability, no-new-privs, no nested namespaces', async () => {
    const r = await sh(
      [
        'id -u',
        "grep -E '^(CapEff|CapPrm|CapBnd|NoNewPrivs):' /proc/self/status",
        'cat /proc/self/uid_map',
        'unshare -U true 2>/dev/null && echo NESTED-USERNS || echo nested-userns-refused',
        'unshare -r true 2>/dev/null && echo NESTED-ROOT || echo nested-root-refused',
      ].join('; '),
    );
    expect(r.exit_code).toBe(0);
    const [uid, ...rest] = r.stdout.trim().split('\n');
    expect(uid).not.toBe('0');
    expect(r.stdout).toMatch(/CapEff:\s*0+\n/);
    expect(r.stdout).toMatch(/CapPrm:\s*0+\n/);
    expect(r.stdout).toMatch(/CapBnd:\s*0+\n/);
    expect(r.stdout).toMatch(/NoNewPrivs:\s*1\n/);
    // In its own user namespace, mapped to an unprivileged uid of the host (not to root).
    const map = rest.find((l) => /^\s*\d+\s+\d+\s+1\s*$/.test(l));
    expect(map).toBeDefined();
    expect(map!.trim().split(/\s+/)[1]).not.toBe('0');
    expect(r.stdout).toContain('nested-userns-refused');
    expect(r.stdout).toContain('nested-root-refused');
  });

  it('cannot remount anything read-write, nor write outside the worktree and /tmp', async () => {
    const mirror = join(scratch, 'mirror.git');
    mkdirSync(mirror);
    writeFileSync(join(mirror, 'config'), '[core]\n\tbare = true\n');
    const r = await sh(
      [
        `mount -o remount,rw / 2>/dev/null && echo REMOUNTED-ROOT`,
        `mount -o remount,rw,bind ${mirror} 2>/dev/null && echo REMOUNTED-MIRROR`,
        `mount --bind ${worktree} /usr 2>/dev/null && echo BOUND`,
        `mount -t tmpfs none /mnt 2>/dev/null && echo MOUNTED`,
        `printf '[core]\\n\\tfsmonitor = /tmp/x\\n' >> ${mirror}/config 2>/dev/null && echo WROTE-MIRROR`,
        'touch /usr/autofix-x 2>/dev/null && echo WROTE-USR',
        'touch /tmp/ok && echo tmp-writable',
        'touch in-worktree && echo worktree-writable',
      ].join('; '),
      { readOnlyPaths: [mirror] },
    );
    expect(r.stdout).not.toMatch(/REMOUNTED|BOUND|MOUNTED|WROTE/);
    expect(r.stdout).toContain('tmp-writable');
    expect(r.stdout).toContain('worktree-writable');
    expect(statSync(join(mirror, 'config')).size).toBe('[core]\n\tbare = true\n'.length);
  });

  it("sees neither the worker's HOME nor its environment, and gets a fresh empty HOME", async () => {
    const sentinel = `sentinel-${process.pid}-${Date.now()}`;
    const planted = join(homedir(), `.autofix-attack-${process.pid}`);
    writeFileSync(planted, sentinel);
    const jobHome = mkdtempSync(join(tmpdir(), 'autofix-attack-home-'));
    const saved = process.env.AUTOFIX_ATTACK_SECRET;
    process.env.AUTOFIX_ATTACK_SECRET = sentinel;
    try {
      const r = await sh(
        [
          `cat ${planted} 2>/dev/null || echo home-file-hidden`,
          // Only toolchains on PATH (~/.pyenv, ~/.cargo…) come back, read-only.
          `ls -A ${homedir()} | grep -cE '^\\.(npmrc|ssh|gitconfig|autofix|config|bashrc)' || true`,
          'echo "HOME=$HOME"',
          'ls -A "$HOME" | wc -l',
          // Every process the command can see, including its parents.
          `grep -l ${sentinel} /proc/[0-9]*/environ 2>/dev/null | wc -l`,
          'env | grep -c AUTOFIX_ATTACK_SECRET || true',
        ].join('; '),
        { home: jobHome },
      );
      const lines = r.stdout.trim().split('\n');
      expect(lines[0]).toBe('home-file-hidden');
      expect(lines[1]).toBe('0');
      expect(lines[2]).toBe(`HOME=${jobHome}`);
      expect(lines[3]).toBe('0');
      expect(lines[4]).toBe('0');
      expect(lines[5]).toBe('0');
      expect(r.stdout).not.toContain(sentinel);
    } finally {
      if (saved === undefined) delete process.env.AUTOFIX_ATTACK_SECRET;
      else process.env.AUTOFIX_ATTACK_SECRET = saved;
      rmSync(planted, { force: true });
      rmSync(jobHome, { recursive: true, force: true });
    }
  });

  it("cannot read the App's key: hidden where the policy says, unreadable as root's 0600 file elsewhere", async () => {
    const keyDir = join(scratch, 'keys');
    mkdirSync(keyDir);
    writeFileSync(join(keyDir, 'app.pem'), '-----BEGIN PRIVATE KEY-----\nMIIsecret\n');
    chmodSync(join(keyDir, 'app.pem'), 0o600);
    const loose = join(scratch, 'loose.pem');
    writeFileSync(loose, 'MIIloose\n');
    chmodSync(loose, 0o600);
    const r = await sh(
      [
        `cat ${join(keyDir, 'app.pem')} 2>/dev/null || echo key-hidden`,
        `ls -A ${keyDir} | wc -l`,
        `cat ${loose} 2>/dev/null || echo loose-unreadable`,
        'cat /etc/shadow 2>/dev/null | head -c 4 || true',
        'echo; echo end',
      ].join('; '),
      { sandbox: { ...BWRAP, hidden: [keyDir] } },
    );
    expect(r.stdout).toContain('key-hidden');
    expect(r.stdout).not.toContain('MIIsecret');
    expect(r.stdout.split('\n')[1]).toBe('0');
    if (isRoot) {
      // Root's own files: the sandbox user is not root on the host, so DAC still applies.
      expect(r.stdout).toContain('loose-unreadable');
      expect(r.stdout).not.toContain('MIIloose');
      expect(r.stdout).not.toContain('root');
    }
  });

  it('has no network: the host loopback (Redis, the app, a local server) is out of reach', async () => {
    const server: Server = createServer((_req, res) => res.end('reached'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const probe = (p: number) =>
        `node -e "require('net').connect(${p},'127.0.0.1').on('connect',()=>{console.log('CONNECTED ${p}');process.exit(0)}).on('error',e=>{console.log('refused ${p} '+e.code);process.exit(0)})"`;
      const r = await sh([probe(port), probe(6379)].join('; '));
      expect(r.stdout).not.toContain('CONNECTED');
      expect(r.stdout).toContain(`refused ${port}`);
      expect(r.stdout).toContain('refused 6379');
    } finally {
      server.close();
    }
  });

  it('cannot reach a terminal (no TIOCSTI) and stays in the process group we kill', async () => {
    const r = await sh(
      '(exec 3</dev/tty) 2>/dev/null && echo HAS-TTY || echo no-tty; ps -o sid= -p $$ | tr -d " "',
    );
    expect(r.stdout).toContain('no-tty');
    expect(r.stdout).not.toContain('HAS-TTY');
  });

  it('stops a fork bomb at the process limit, and leaves nothing running', async () => {
    const r = await sh('for i in $(seq 1 500); do (sleep 31) & done; echo all-started', {
      limits: { processes: 64 },
    });
    expect(r.stdout).not.toContain('all-started');
    expect(r.stderr).toMatch(/fork|Resource temporarily unavailable/i);
    const ps = execFileSync('ps', ['-eo', 'stat=,args=']).toString();
    expect(ps.split('\n').filter((l) => /sleep 31/.test(l) && !l.startsWith('Z'))).toEqual([]);
  });

  it('never hands a file outside the worktree to the sandbox user through a planted symlink', async () => {
    const target = join(scratch, 'root-owned');
    writeFileSync(target, 'precious');
    const owner = statSync(target).uid;
    const link = join(worktree, 'evil-link');
    symlinkSync(target, link);
    symlinkSync(scratch, join(worktree, 'evil-dir'));
    const r = await sh('echo hi > mine.txt && cat mine.txt');
    expect(r.stdout).toBe('hi\n');
    expect(statSync(target).uid).toBe(owner);
    expect(statSync(scratch).uid).toBe(owner);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    // The sandbox user wrote it; once the command ended, the worktree is ours again.
    expect(statSync(join(worktree, 'mine.txt')).uid).toBe(process.getuid?.());
    expect(statSync(worktree).uid).toBe(process.getuid?.());
  });

  it('keeps a package cache with the sandbox user across commands, and gives the worktree back', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'autofix-attack-cache-'));
    const home = mkdtempSync(join(tmpdir(), 'autofix-attack-home-'));
    try {
      const run = (script: string) =>
        sh(script, { home, binds: [{ src: cache, dest: join(home, '.cache') }] });
      expect((await run('echo one > "$HOME/.cache/pkg" && echo ok')).stdout).toBe('ok\n');
      expect((await run('cat "$HOME/.cache/pkg"')).stdout).toBe('one\n');
      expect(statSync(worktree).uid).toBe(process.getuid?.());
      expect(statSync(home).uid).toBe(process.getuid?.());
      // As root the cache stays the sandbox user's (no walk before and after every command).
      expect(statSync(join(cache, 'pkg')).uid).toBe(isRoot ? 65534 : process.getuid?.());
    } finally {
      rmSync(cache, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('refuses to run in a shared directory: /tmp, a home, the root', async () => {
    for (const shared of ['/tmp', '/', homedir()]) {
      await expect(
        runCommand(['true'], { worktree: shared, timeoutMs: 5000, sandbox: BWRAP }),
      ).rejects.toThrow(/refusing to hand .* to the sandbox user/);
    }
    // Nothing in /tmp changed hands.
    expect(statSync('/tmp').uid).toBe(0);
  });
});

describe('fail closed', () => {
  it('refuses with SANDBOX_UNAVAILABLE, and the fix, when bubblewrap is missing — nothing runs', async () => {
    const marker = join(worktree, 'ran');
    const refused = sh(`touch ${marker}`, {
      sandbox: { ...BWRAP, bwrapPath: '/nonexistent/bwrap' },
    });
    await expect(refused).rejects.toMatchObject({ code: 'SANDBOX_UNAVAILABLE' });
    await expect(refused).rejects.toThrow(/Fix: .*AUTOFIX_SANDBOX=none/s);
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses a "bubblewrap" that runs the command without isolating it', async () => {
    // A broken install: it executes whatever follows the last `--`, as the worker, with its caps.
    const fake = join(scratch, 'bwrap');
    writeFileSync(
      fake,
      '#!/bin/sh\nwhile [ $# -gt 0 ]; do if [ "$1" = "--" ]; then shift; last="$*"; fi; shift; done\nexec sh -c "$last"\n',
    );
    chmodSync(fake, 0o755);
    const marker = join(worktree, 'ran');
    await expect(
      sh(`touch ${marker}`, { sandbox: { ...BWRAP, bwrapPath: fake } }),
    ).rejects.toMatchObject({ code: 'SANDBOX_UNAVAILABLE' });
    expect(existsSync(marker)).toBe(false);
  });

  it('runs unsandboxed only when the policy says none, and says so in the result', async () => {
    const r = await sh('echo plain', { sandbox: basicSandboxPolicy('none') });
    expect(r.sandboxed).toBe(false);
    expect(r.warning).toMatch(/WITHOUT a sandbox/);
    const s = await sh('echo boxed');
    expect(s.sandboxed).toBe(true);
    expect(s.warning).toBeUndefined();
  });
});
