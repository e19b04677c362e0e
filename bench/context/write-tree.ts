/**
 * Writes the files of `commit` from a git directory into `target`, with `cat-file --batch`, not
 * `git checkout`: the stored snapshots lack blobs of 4 MiB and more, and checkout refuses a tree
 * with a missing blob. Such files are left out. The source repository is never written to.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function writeTree(gitDir: string, commit: string, target: string): void {
  const entries = execFileSync(
    'git',
    ['-C', gitDir, 'ls-tree', '-r', '-z', '--full-tree', commit],
    {
      encoding: 'utf8',
      maxBuffer: 2 ** 30,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
    .split('\0')
    .filter((e) => e !== '')
    .map((e) => {
      const [meta = '', path = ''] = e.split('\t');
      const [mode = '', type = '', sha = ''] = meta.split(' ');
      return { mode, type, sha, path };
    })
    .filter((e) => e.type === 'blob');
  const out = execFileSync('git', ['-C', gitDir, 'cat-file', '--batch'], {
    input: entries.map((e) => e.sha).join('\n') + '\n',
    maxBuffer: 2 ** 31 - 1,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let at = 0;
  for (const e of entries) {
    const eol = out.indexOf(10, at);
    const header = out.subarray(at, eol).toString();
    at = eol + 1;
    if (header.endsWith(' missing')) continue;
    const size = Number(header.split(' ')[2]);
    const content = out.subarray(at, at + size);
    at += size + 1;
    const file = join(target, e.path);
    mkdirSync(dirname(file), { recursive: true });
    if (e.mode === '120000') symlinkSync(content.toString(), file);
    else writeFileSync(file, content, { mode: e.mode === '100755' ? 0o755 : 0o644 });
  }
}
