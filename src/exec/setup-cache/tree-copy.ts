/**
 * Copies of whole trees by `cp`, a few at once: hard links (`cp -al`) or copies that keep modes
 * and clone extents where the filesystem can (`--reflink=auto`). Copying many small files
 * is all system calls: several `cp` children use every core (dayjs's 28,000 files by hard links:
 * 2.6 → 1.2 s).
 */
import { execFile } from 'node:child_process';
import { lstat, mkdir, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { eachLimit } from './walk.js';

const execFileAsync = promisify(execFile);

export type TreeCopy = 'link' | 'copy';

const CP_PROCESSES = 4;
const CP_BATCH = 64;
const ENV = { PATH: '/usr/bin:/bin', LC_ALL: 'C' };

/** Hard links, or copies owned by us (modes and times kept, extents cloned where possible). */
const FLAGS: Record<TreeCopy, string[]> = {
  link: ['-al'],
  copy: ['-dR', '--preserve=mode,timestamps', '--reflink=auto'],
};

const cp = (how: TreeCopy, args: readonly string[]): Promise<unknown> =>
  execFileAsync('cp', [...FLAGS[how], ...args], { env: ENV });

/**
 * `src` (a folder, a file or a link) made at `dst`, whose parent is made if missing. A folder is
 * made fresh with `mode` (owner-writable) and its children copied by a few `cp` at once.
 */
export async function copyTree(src: string, dst: string, how: TreeCopy): Promise<void> {
  const s = await lstat(src);
  await mkdir(dirname(dst), { recursive: true });
  if (!s.isDirectory()) {
    await cp(how, ['-T', '--', src, dst]);
    return;
  }
  await mkdir(dst, { mode: (s.mode & 0o777) | 0o700 });
  const children = await readdir(src);
  const batches: string[][] = [];
  for (let i = 0; i < children.length; i += CP_BATCH) batches.push(children.slice(i, i + CP_BATCH));
  await eachLimit(batches, CP_PROCESSES, async (batch) => {
    await cp(how, ['-t', dst, '--', ...batch.map((c) => join(src, c))]);
  });
}
