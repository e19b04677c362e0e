import { setupCache } from '../../../src/pipeline/code/code-workspace.js';
import { bwrapArgv, DEFAULT_LIMITS, orderMounts } from '../../../src/exec/bwrap-args.js';
import { sandboxFilesystem } from '../../../src/exec/sandbox-filesystem.js';
import { sandboxFix } from '../../../src/exec/sandbox.js';
import { withRepoSandbox, basicSandboxPolicy } from '../../../src/exec/sandbox-policy.js';

const layout = {
  writable: ['/w/jobs/1/repo', '/w/jobs/1/home'],
  hidden: ['/w', '/root'],
  readOnly: ['/w/mirrors/o/r.git/objects', '/w/jobs/1/repo/.git'],
  cwd: '/w/jobs/1/repo/pkg',
  limits: DEFAULT_LIMITS,
  tmpBytes: 1024,
};

describe('bwrapArgv', () => {
  it('isolates every namespace, mounts the root read-only and /tmp private, and never leaves the group', () => {
    const args = bwrapArgv('bwrap', layout, ['npm', 'test']);
    const joined = args.join(' ');
    for (const flag of [
      '--die-with-parent',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--unshare-net',
      '--unshare-user',
      '--disable-userns',
      '--cap-drop ALL',
    ])
      expect(joined).toContain(flag);
    expect(joined).not.toContain('--new-session'); // would take the command out of our process group
    expect(joined).toContain('--ro-bind / /');
    expect(joined).toContain('--perms 1777 --size 1024 --tmpfs /tmp');
    expect(args.slice(0, 1)).toEqual(['prlimit']);
    expect(joined).toContain(`--nproc=${DEFAULT_LIMITS.processes}`);
    expect(args.slice(-3)).toEqual(['--', 'npm', 'test']);
  });

  it('as root: mounts first, then setpriv drops to the unprivileged identity, then a user namespace', () => {
    const args = bwrapArgv('bwrap', { ...layout, runAs: { uid: 65534, gid: 65534 } }, ['true']);
    const setpriv = args.indexOf('setpriv');
    expect(setpriv).toBeGreaterThan(args.indexOf('--ro-bind'));
    expect(args.slice(setpriv, setpriv + 8)).toEqual([
      'setpriv',
      '--reuid=65534',
      '--regid=65534',
      '--clear-groups',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--no-new-privs',
      '--',
    ]);
    const inner = args.slice(setpriv + 8);
    expect(inner[0]).toBe('bwrap');
    expect(inner.join(' ')).toContain('--unshare-user --disable-userns --uid 65534 --gid 65534');
    expect(inner.join(' ')).toContain('--cap-drop ALL');
    // The outer, privileged bwrap does not make a user namespace (root maps to root in one).
    expect(args.slice(0, setpriv).join(' ')).not.toContain('--unshare-user');
  });

  it('layers hidden, writable and read-only mounts parent first, with walkable mount points', () => {
    const args = bwrapArgv('bwrap', { ...layout, runAs: { uid: 1, gid: 1 } }, ['true']).join(' ');
    const at = (s: string) => args.indexOf(s);
    expect(at('--tmpfs /w ')).toBeGreaterThan(-1);
    expect(at('--tmpfs /w ')).toBeLessThan(at('--dir /w/jobs '));
    expect(at('--dir /w/jobs ')).toBeLessThan(at('--dir /w/jobs/1 '));
    expect(at('--dir /w/jobs/1 ')).toBeLessThan(at('--bind /w/jobs/1/repo '));
    expect(at('--bind /w/jobs/1/repo ')).toBeLessThan(at('--ro-bind-try /w/jobs/1/repo/.git'));
    expect(args).toContain('--perms 0755 --dir /w/jobs/1 ');
  });
});

describe('orderMounts', () => {
  it('puts every mount after the mounts that contain it', () => {
    const order = orderMounts({
      ...layout,
      hidden: ['/a/b/c', '/a'],
      writable: ['/a/b/c/d'],
      readOnly: ['/a/b'],
    }).map((m) => `${m.kind} ${m.dest}`);
    expect(order).toEqual(['tmpfs /a', 'ro-bind-try /a/b', 'tmpfs /a/b/c', 'bind /a/b/c/d']);
  });
});

describe('sandboxFilesystem', () => {
  const exists = (paths: string[]) => (p: string) => paths.some((x) => x === p);

  it('hides homes, sockets and the workdir, and brings back only the toolchains on PATH', () => {
    const fs = sandboxFilesystem({
      hidden: ['/srv/autofix', '/etc/autofix'],
      home: '/root',
      path: '/root/.pyenv/shims:/root/.cargo/bin:/root/.local/bin:/usr/bin',
      execPath: '/usr/bin/node',
      exists: exists([
        '/root',
        '/home',
        '/run',
        '/srv',
        '/srv/autofix',
        '/etc/autofix',
        '/root/.pyenv/shims',
        '/root/.pyenv',
        '/root/.cargo/bin',
        '/root/.cargo',
        '/root/.rustup',
        '/root/.cargo/credentials.toml',
        '/root/.local/bin',
        '/usr/bin',
      ]),
    });
    expect(fs.hidden.sort()).toEqual(['/etc/autofix', '/home', '/root', '/run', '/srv']);
    expect(fs.readOnly.sort()).toEqual([
      '/root/.cargo',
      '/root/.local/bin',
      '/root/.pyenv',
      '/root/.rustup',
    ]);
    expect(fs.masked).toEqual(['/root/.cargo/credentials.toml']);
    expect(fs.env).toEqual({
      PYENV_ROOT: '/root/.pyenv',
      CARGO_HOME: '/root/.cargo',
      RUSTUP_HOME: '/root/.rustup',
    });
  });

  it('never brings back a whole home directory', () => {
    const fs = sandboxFilesystem({
      hidden: [],
      home: '/home/alice',
      path: '/home/alice/bin:/home/bob/.nvm/versions/node/v20/bin',
      exists: () => true,
    });
    expect(fs.readOnly.sort()).toEqual(['/home/alice/bin', '/home/bob/.nvm']);
    expect(fs.env).toEqual({ NVM_DIR: '/home/bob/.nvm' });
  });
});

describe('policy', () => {
  it('lets a repository ask for the sandbox, never turn it off', () => {
    const none = basicSandboxPolicy('none');
    expect(withRepoSandbox(none, 'bwrap').mode).toBe('bwrap');
    expect(withRepoSandbox(none, 'auto').mode).toBe('none');
    expect(withRepoSandbox(basicSandboxPolicy('bwrap'), 'auto').mode).toBe('bwrap');
  });

  it('names the fix for what bubblewrap said', () => {
    expect(sandboxFix('spawn bwrap ENOENT', 'AUTOFIX_SANDBOX=none')).toMatch(
      /apt-get install bubblewrap/,
    );
    expect(sandboxFix('bwrap: No permissions to create new namespace', '--sandbox none')).toMatch(
      /unprivileged_userns_clone.*--sandbox none/s,
    );
  });
});

describe('setupCache', () => {
  it('binds the repository cache in the sandbox, and names it directly without one', () => {
    expect(setupCache('/job/home', '/w/caches/o/r', 'bwrap')).toEqual({
      binds: [{ src: '/w/caches/o/r', dest: '/job/home/.cache' }],
      env: expect.objectContaining({ npm_config_cache: '/job/home/.cache/npm' }) as unknown,
    });
    expect(setupCache('/job/home', '/w/caches/o/r', 'none')).toEqual({
      binds: [],
      env: expect.objectContaining({ npm_config_cache: '/w/caches/o/r/npm' }) as unknown,
    });
  });
});
