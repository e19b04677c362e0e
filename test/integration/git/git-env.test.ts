/**
 * Issue #11: whatever the bot's git starts — a program a repository planted, or git's own
 * helpers — inherits git's environment. That environment must hold none of the worker's
 * secrets, and git must read no configuration but the repository's and ours.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runGit } from '../../../src/git/run-git.js';
import { createRepo } from '../../helpers/repo-builder.js';
import { removeDir, tempDir } from './helpers.js';
import { makeTrap } from './trap.js';

const SECRETS: Record<string, string> = {
  PRIVATE_KEY: '-----BEGIN RSA PRIVATE KEY-----SENTINELprivatekey',
  WEBHOOK_SECRET: 'SENTINELwebhooksecret',
  OPENAI_API_KEY: 'sk-SENTINELopenaikey',
  REDIS_URL: 'redis://:SENTINELredispassword@127.0.0.1:6379',
  ADMIN_PASSWORD: 'SENTINELadminpassword',
};

describe("the bot's git environment", () => {
  let root: string;
  const saved = new Map<string, string | undefined>();

  const setEnv = (vars: Record<string, string>) => {
    for (const [name, value] of Object.entries(vars)) {
      if (!saved.has(name)) saved.set(name, process.env[name]);
      process.env[name] = value;
    }
  };

  beforeEach(async () => {
    root = await tempDir();
  });
  afterEach(async () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    saved.clear();
    await removeDir(root);
  });

  const expectNoSecrets = (environment: string) => {
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(environment).not.toContain(value);
      expect(environment).not.toMatch(new RegExp(`(^|\\0|\\n)${name}=`));
    }
  };

  it('holds none of the worker secrets, in git or in what git starts', async () => {
    setEnv(SECRETS);
    // An alias is a program git starts on our explicit request: it sees what a hook would.
    const r = await runGit(['-c', 'alias.show-env=!env', 'show-env'], { cwd: root });
    expectNoSecrets(r.stdout);
    expect(r.stdout).toMatch(/^HOME=\/nonexistent$/m);
    expect(r.stdout).toMatch(/^GIT_CONFIG_NOSYSTEM=1$/m);
    expect(r.stdout).toMatch(/^PATH=/m);
  });

  it('holds none of them while a network git (git and git-remote-http) waits on the remote', async () => {
    setEnv(SECRETS);
    let arrived!: () => void;
    const request = new Promise<void>((resolve) => (arrived = resolve));
    const server = createServer(() => arrived()); // never answers
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/acme/demo.git`;
    const pending = runGit(['ls-remote', url], { cwd: root, token: 'ghs_SENTINELtoken' }).catch(
      (e: unknown) => e,
    );
    try {
      await Promise.race([
        request,
        pending.then((e) => {
          throw new Error(`git ended before reaching the server: ${String(e)}`);
        }),
      ]);
      const environs: string[] = [];
      for (const pid of await readdir('/proc')) {
        if (!/^\d+$/.test(pid)) continue;
        const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
        if (!cmdline.includes(url)) continue;
        const environ = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '');
        if (environ !== '') environs.push(environ);
      }
      expect(environs.length).toBeGreaterThanOrEqual(2); // git ls-remote, git-remote-http
      for (const environ of environs) {
        expectNoSecrets(environ);
        expect(environ.split('\0')).toContain('HOME=/nonexistent');
      }
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await pending;
    }
  });

  it("reads no global, XDG or system config and nothing from the worker's HOME", async () => {
    const home = join(root, 'home');
    await mkdir(join(home, '.config', 'git'), { recursive: true });
    await writeFile(join(home, '.gitconfig'), '[alias]\n\tfrom-global = status\n');
    await writeFile(join(home, '.config', 'git', 'config'), '[alias]\n\tfrom-xdg = status\n');
    const system = join(root, 'gitconfig');
    await writeFile(system, '[alias]\n\tfrom-system = status\n');
    setEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GIT_CONFIG_SYSTEM: system });
    const r = await runGit(['config', '--list', '--show-scope'], { cwd: root });
    expect(r.stdout).not.toMatch(/from-(global|xdg|system)/);
    const scopes = new Set(
      r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]),
    );
    expect([...scopes]).toEqual(['command']);
  });

  it('refuses ext::, ssh and git:// remotes even when the repository config allows them', async () => {
    const trap = await makeTrap(root);
    const repo = createRepo({ root, name: 'repo', commit: false });
    const marker = join(root, 'ext-ran');
    const set = (key: string, value: string) => repo.git('config', key, value);
    set('protocol.allow', 'always');
    set('protocol.ext.allow', 'always');
    set('core.sshCommand', await trap.script('ssh-command'));
    set('core.gitProxy', await trap.script('git-proxy'));

    for (const url of [
      `ext::sh -c touch% ${marker}`,
      'ssh://git.example.invalid/acme/demo.git',
      'git://git.example.invalid/acme/demo.git',
    ]) {
      const r = await runGit(['ls-remote', url], { cwd: repo.dir, okCodes: [128] });
      expect(r.code).toBe(128);
      expect(r.stderr).toMatch(/transport '(ext|ssh|git)' not allowed/);
    }
    expect(existsSync(marker)).toBe(false);
    expect(await trap.runs()).toEqual([]);
  });
});
