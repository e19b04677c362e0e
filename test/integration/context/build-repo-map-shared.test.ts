import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRepoMap, loadFilesSync } from '../../../src/context/build-repo-map.js';
import { listRepoFiles } from '../../../src/context/list-repo-files.js';
import { writeFiles } from '../../helpers/repo-builder.js';

/** The blocking and the shared (two threads) ways of reading give the very same map. */
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'autofix-map-shared-'));
  const files: Record<string, string | Buffer> = {
    'src/app.ts': 'export function main() {}\r\nexport class App {\n  run(x) {\n  }\n}\n',
    'README.md': '# Demo\n',
    'notes.txt': '\n\n   \nfirst real line\nsecond\nthird',
    'empty.txt': '',
    'one-line.txt': 'no newline at the end',
    'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    'data.bin.txt': Buffer.from([0x61, 0x00, 0x62]),
    'big.txt': 'x'.repeat(300 * 1024),
    'package-lock.json': '{}',
  };
  for (let i = 0; i < 150; i++) files[`src/m${i}.js`] = `export const v${i} = ${i};\n`.repeat(i);
  writeFiles(root, files);
  await symlink('/etc/passwd', join(root, 'outside-link'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('buildRepoMap read by one or two threads', () => {
  it('gives the same map with blocking reads', async () => {
    expect(await buildRepoMap(root, { readSync: true })).toEqual(await buildRepoMap(root));
  });

  it('gives the same map from a listing and files another thread loaded', async () => {
    const plain = await buildRepoMap(root);
    const listed = await listRepoFiles(root);
    const half = Math.ceil(listed.paths.length / 2);
    const preloaded = new Map(loadFilesSync(root, listed.paths.slice(half)));
    expect(await buildRepoMap(root, { readSync: true, listed, preloaded })).toEqual(plain);
    expect(await buildRepoMap(root, { listed, preloaded })).toEqual(plain);
    // Every file preloaded, and the limit on total bytes still applied in listing order.
    const all = new Map(loadFilesSync(root, listed.paths));
    expect(await buildRepoMap(root, { preloaded: all, maxTotalBytes: 10_000 })).toEqual(
      await buildRepoMap(root, { maxTotalBytes: 10_000 }),
    );
  });
});
