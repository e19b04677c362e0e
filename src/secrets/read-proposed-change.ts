/**
 * A proposed change set (whole new contents, not yet written) against the files on disk: what the
 * modes scan before they write anything into the user's project.
 */
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileChange } from '../contracts.js';
import type { ChangedText } from './find-credentials.js';

export async function readProposedChange(
  repoDir: string,
  files: readonly FileChange[],
): Promise<ChangedText[]> {
  const texts: ChangedText[] = [];
  for (const file of files) {
    if (file.op !== 'write' || file.content === undefined) continue;
    const abs = join(repoDir, file.path);
    const stat = await lstat(abs).catch(() => undefined);
    const before = stat?.isFile() ? await readFile(abs, 'utf8') : undefined;
    texts.push({ path: file.path, before, after: file.content });
  }
  return texts;
}
