import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRepoMap, symbolsOf } from '../../../src/context/build-repo-map.js';
import { createRepo, writeFiles } from '../../helpers/repo-builder.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'autofix-map-'));
  const files: Record<string, string | Buffer> = {
    'src/app.ts': 'export function main() {}\r\nexport class App {}\r\n',
    'README.md': '# Demo\n',
    'notes.txt': '\n\nfirst real line\nsecond\n',
    'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    'data.bin.txt': Buffer.from([0x61, 0x00, 0x62]),
    'big.txt': 'x'.repeat(300 * 1024),
    'package-lock.json': '{}',
    'node_modules/dep/index.js': 'module.exports = 1;',
    'dist/out.js': 'built',
  };
  writeFiles(root, files);
  await symlink('/etc/passwd', join(root, 'outside-link'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('buildRepoMap', () => {
  it('walks a plain directory, skipping dependency and build folders', async () => {
    const map = await buildRepoMap(root);
    expect(map.source).toBe('walk');
    expect(map.files.map((f) => f.path)).toEqual(['README.md', 'notes.txt', 'src/app.ts']);
    expect(map.skipped).toEqual([
      { path: 'big.txt', reason: 'too-large', bytes: 300 * 1024 },
      { path: 'data.bin.txt', reason: 'binary', bytes: 3 },
      { path: 'logo.png', reason: 'binary' },
      // Listed as what it is, with its own text: never followed.
      { path: 'outside-link', reason: 'symlink', target: '/etc/passwd' },
      { path: 'package-lock.json', reason: 'generated' },
    ]);
    const app = map.files.find((f) => f.path === 'src/app.ts');
    expect(app && symbolsOf(app).map((s) => s.name)).toEqual(['main', 'App']);
    expect(app?.content).not.toContain('\r');
    expect(map.files.find((f) => f.path === 'notes.txt')?.firstLines).toEqual([
      'first real line',
      'second',
    ]);
  });

  it('lists tracked files in a git repository and never follows a symlink', async () => {
    createRepo({ root, commit: false }).git('add', 'src', 'README.md', 'outside-link', 'logo.png');
    const map = await buildRepoMap(root);
    expect(map.source).toBe('git');
    expect(map.files.map((f) => f.path)).toEqual(['README.md', 'src/app.ts']);
    expect(map.skipped).toEqual([
      { path: 'logo.png', reason: 'binary' },
      { path: 'outside-link', reason: 'symlink', target: '/etc/passwd' },
    ]);
  });
});
