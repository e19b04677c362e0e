/**
 * The HOME that repository commands of the local modes get: not the user's (hidden by the
 * sandbox, with its `~/.ssh` and `~/.npmrc`), but a directory of their own per project under the
 * workdir, kept between runs so that package caches stay warm.
 */
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';

export async function modeHome(workdir: string, projectDir: string): Promise<string> {
  const abs = resolve(projectDir);
  const id = createHash('sha256').update(abs).digest('hex').slice(0, 12);
  const dir = join(workdir, 'homes', `${basename(abs).replace(/[^\w.-]/g, '_')}-${id}`);
  await mkdir(dir, { recursive: true });
  return dir;
}
