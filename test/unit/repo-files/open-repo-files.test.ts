import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRepoFiles } from '../../../src/repo-files/open-repo-files.js';
import type { RefusalReason } from '../../../src/repo-files/refusal.js';
import {
  createHostileWorld,
  HOSTILE_KINDS,
  leakedCanaries,
  type HostileKind,
  type HostileWorld,
} from '../../helpers/hostile-entries.js';

let root: string;
let world: HostileWorld;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'autofix-reader-'));
  world = createHostileWorld();
  writeFileSync(join(root, 'README.md'), '# hello\n');
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'index.js'), 'export const x = 1;\n');
});
afterEach(() => {
  world.cleanup();
  rmSync(root, { recursive: true, force: true });
});

const EXPECTED: Record<HostileKind, RefusalReason> = {
  'proc-self-environ': 'symlink',
  'proc-parent-environ': 'symlink',
  'home-file': 'symlink',
  'outside-file': 'symlink',
  'dotdot-chain': 'symlink',
  'linked-directory': 'symlink-on-path',
  'hard-link': 'hard-link',
  fifo: 'special',
  'sparse-2g': 'too-large',
  'link-loop': 'symlink',
};

describe('openRepoFiles', () => {
  it('reads a regular file inside the worktree, in both ways', async () => {
    const files = openRepoFiles(root);
    const got = await files.read('src/index.js');
    expect(got.ok && got.bytes.toString()).toBe('export const x = 1;\n');
    const sync = files.readSync('./src//index.js');
    expect(sync.ok && sync.path).toBe('src/index.js');
    expect(await files.readText('README.md')).toEqual({
      ok: true,
      path: 'README.md',
      text: '# hello\n',
    });
  });

  it.each(HOSTILE_KINDS)('refuses %s, says why, and returns nothing of it', async (kind) => {
    const path = 'test/fixtures/env.test.js';
    world.plant(root, path, kind);
    const files = openRepoFiles(root);
    for (const got of [await files.read(path), files.readSync(path), await files.readText(path)]) {
      expect(got.ok).toBe(false);
      if (got.ok) continue;
      expect(got.reason).toBe(EXPECTED[kind]);
      expect(got.message).toContain('test/fixtures/env.test.js');
      expect(leakedCanaries(JSON.stringify(got), world)).toEqual([]);
    }
  });

  it('names a link by its own text, never by what it points at', async () => {
    mkdirSync(join(root, 'docs'));
    symlinkSync('../README.md', join(root, 'docs', 'README.md'));
    const files = openRepoFiles(root);
    const got = await files.read('docs/README.md');
    expect(got).toMatchObject({ ok: false, reason: 'symlink', target: '../README.md' });
    expect(!got.ok && got.message).toBe(
      '`docs/README.md` is a symbolic link to `../README.md`; links are not followed',
    );
    expect(await files.linkTarget('docs/README.md')).toBe('../README.md');
    expect(await files.linkTarget('README.md')).toBeUndefined();
  });

  it('refuses paths that leave the worktree by their spelling, or reach into .git', async () => {
    const files = openRepoFiles(root);
    const reasons = async (p: string) => {
      const got = await files.read(p);
      return got.ok ? 'read' : got.reason;
    };
    expect(await reasons('../../etc/passwd')).toBe('outside');
    expect(await reasons('src/../../x')).toBe('outside');
    expect(await reasons('/etc/passwd')).toBe('invalid-path');
    expect(await reasons('')).toBe('invalid-path');
    expect(await reasons('a\0b')).toBe('invalid-path');
    expect(await reasons('.git/config')).toBe('git-internal');
    expect(await reasons('src')).toBe('directory');
    expect(await reasons('nope.js')).toBe('missing');
    expect(await reasons('README.md/x')).toBe('missing');
  });

  it('never opens a socket or a device', async () => {
    const server: Server = createServer();
    await new Promise<void>((done) => server.listen(join(root, 'sock'), done));
    symlinkSync('/dev/zero', join(root, 'zero'));
    try {
      const files = openRepoFiles(root);
      expect(await files.read('sock')).toMatchObject({ reason: 'special' });
      expect(await files.read('zero')).toMatchObject({ reason: 'symlink', target: '/dev/zero' });
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('reads a FIFO by neither way (no hang), and a cap refuses before reading', async () => {
    execFileSync('mkfifo', [join(root, 'pipe')]);
    writeFileSync(join(root, 'big.txt'), 'x'.repeat(1001));
    const files = openRepoFiles(root);
    expect(files.readSync('pipe')).toMatchObject({ reason: 'special' });
    expect(await files.read('big.txt', { maxBytes: 1000 })).toMatchObject({
      reason: 'too-large',
      bytes: 1001,
    });
    expect(await files.read('big.txt', { maxBytes: 1001 })).toMatchObject({ ok: true });
  });

  it('refuses text that is not UTF-8', async () => {
    writeFileSync(join(root, 'bin.dat'), Buffer.from([0x66, 0x00, 0x67]));
    writeFileSync(join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    const files = openRepoFiles(root);
    expect(await files.readText('bin.dat')).toMatchObject({ reason: 'binary' });
    expect(await files.readText('latin1.txt')).toMatchObject({ reason: 'binary' });
    expect(await files.read('latin1.txt')).toMatchObject({ ok: true });
  });

  it('lists a directory with each entry kind, and refuses to list through a link', async () => {
    world.plant(root, 'src/env.js', 'proc-self-environ');
    world.plant(root, 'out/secret.txt', 'linked-directory');
    const files = openRepoFiles(root);
    expect(await files.list('src')).toEqual(
      expect.arrayContaining([
        { name: 'index.js', kind: 'file' },
        { name: 'env.js', kind: 'symlink' },
      ]),
    );
    expect(await files.list('out')).toMatchObject({ ok: false, reason: 'symlink-on-path' });
    expect(await files.list('../')).toMatchObject({ ok: false, reason: 'outside' });
  });

  it('checks the worktree by its real path when it is reached through a link', async () => {
    const alias = `${root}-alias`;
    symlinkSync(root, alias);
    try {
      const files = openRepoFiles(alias);
      expect(files.root).toBe(root);
      expect(await files.read('README.md')).toMatchObject({ ok: true });
    } finally {
      rmSync(alias);
    }
  });
});
