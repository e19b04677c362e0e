import { bwrapArgs, resetSandboxProbe, resolveSandbox } from '../../../src/exec/sandbox.js';

describe('bwrapArgs', () => {
  it('mounts the root read-only, /tmp private and the worktree writable, in that order', () => {
    const args = bwrapArgs({ writable: ['/w/job/repo'], cwd: '/w/job/repo/pkg', network: true });
    const joined = args.join(' ');
    expect(joined).toContain('--die-with-parent');
    expect(joined).toContain('--unshare-pid');
    expect(joined).not.toContain('--unshare-net');
    expect(joined).not.toContain('--new-session'); // would take the command out of our process group
    expect(joined.indexOf('--ro-bind / /')).toBeLessThan(joined.indexOf('--tmpfs /tmp'));
    expect(joined.indexOf('--tmpfs /tmp')).toBeLessThan(
      joined.indexOf('--bind /w/job/repo /w/job/repo'),
    );
    expect(args.slice(-3)).toEqual(['--chdir', '/w/job/repo/pkg', '--']);
  });

  it('cuts the network for validate commands and layers hidden, writable, read-only mounts', () => {
    const args = bwrapArgs({
      writable: ['/w/jobs/1/repo'],
      hidden: ['/w'],
      readOnly: ['/w/mirrors/o/r.git', '/w/jobs/1/repo/.git'],
      cwd: '/w/jobs/1/repo',
      network: false,
    }).join(' ');
    expect(args).toContain('--unshare-net');
    const at = (s: string) => args.indexOf(s);
    expect(at('--tmpfs /w ')).toBeLessThan(at('--bind /w/jobs/1/repo '));
    expect(at('--bind /w/jobs/1/repo ')).toBeLessThan(at('--ro-bind /w/mirrors/o/r.git'));
    expect(at('--bind /w/jobs/1/repo ')).toBeLessThan(at('--ro-bind /w/jobs/1/repo/.git'));
  });
});

describe('resolveSandbox', () => {
  afterEach(() => resetSandboxProbe());

  it('falls back to no sandbox with a warning when bwrap does not run (auto)', async () => {
    const choice = await resolveSandbox('auto', '/nonexistent/bwrap');
    expect(choice.kind).toBe('none');
    expect(choice.warning).toMatch(/without a sandbox/);
  });

  it('refuses to run unsandboxed when bwrap is required', async () => {
    await expect(resolveSandbox('bwrap', '/nonexistent/bwrap')).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
    });
  });

  it('uses no sandbox when told so', async () => {
    expect(await resolveSandbox('none', '/nonexistent/bwrap')).toEqual({ kind: 'none' });
  });
});
