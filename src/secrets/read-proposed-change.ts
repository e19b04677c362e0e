/**
 * A proposed change set (whole new contents, not yet written) against the files on disk: what the
 * modes scan before they write anything into the user's project. The current text comes through
 * the one reader: a link or a special file has no text of the repository's to compare with.
 */
import type { FileChange } from '../contracts.js';
import { openRepoFiles } from '../repo-files/open-repo-files.js';
import type { ChangedText } from './find-credentials.js';

export async function readProposedChange(
  repoDir: string,
  files: readonly FileChange[],
): Promise<ChangedText[]> {
  const repo = openRepoFiles(repoDir);
  const texts: ChangedText[] = [];
  for (const file of files) {
    if (file.op !== 'write' || file.content === undefined) continue;
    const now = await repo.read(file.path, { maxBytes: SCAN_MAX_BYTES });
    texts.push({
      path: file.path,
      before: now.ok ? now.bytes.toString('utf8') : undefined,
      after: file.content,
    });
  }
  return texts;
}

/** What the gate reads of one file: far over any source file, still bounded. */
export const SCAN_MAX_BYTES = 64 * 1024 * 1024;
