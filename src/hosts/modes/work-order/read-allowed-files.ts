/**
 * What the SE sees of the repository: the sha256 of every allowed file as it is
 * now (the `base_sha256` its writes must carry; empty bytes for a missing file) and the context
 * files' contents, read in the work order's order and cut deterministically at 200 KB in total.
 */
import { sha256 } from '../../../edits/sha256.js';
import { openRepoFiles, type RepoFiles } from '../../../repo-files/open-repo-files.js';
import type { WorkOrder } from './work-order-schema.js';

export const MAX_CONTEXT_BYTES = 200 * 1024;

export interface AllowedFile {
  path: string;
  exists: boolean;
  sha256: string;
}

export interface ContextFile {
  path: string;
  /** Undefined when the file does not exist or is not text. */
  content?: string;
  note?: string;
  truncated: boolean;
}

/** The file's bytes; undefined when nothing is there, or only what the reader refuses (a link). */
async function bytesOf(repo: RepoFiles, path: string): Promise<Buffer | undefined> {
  const got = await repo.read(path);
  return got.ok ? got.bytes : undefined;
}

export async function readAllowedFiles(
  repo: string,
  order: Pick<WorkOrder, 'allowed_files' | 'context_files'>,
): Promise<{ allowed: AllowedFile[]; context: ContextFile[] }> {
  const files = openRepoFiles(repo);
  const allowed: AllowedFile[] = [];
  for (const path of order.allowed_files) {
    const bytes = await bytesOf(files, path);
    allowed.push({ path, exists: bytes !== undefined, sha256: sha256(bytes ?? '') });
  }
  const context: ContextFile[] = [];
  let budget = MAX_CONTEXT_BYTES;
  for (const path of order.context_files) {
    const bytes = await bytesOf(files, path);
    if (bytes === undefined) {
      context.push({ path, note: 'does not exist yet', truncated: false });
      continue;
    }
    if (bytes.includes(0)) {
      context.push({ path, note: 'binary file, not shown', truncated: false });
      continue;
    }
    const kept = bytes.subarray(0, Math.max(0, budget));
    budget -= kept.length;
    // A cut inside a multi-byte character drops the partial character, nothing else.
    const content = kept.toString('utf8').replace(/\uFFFD$/, '');
    context.push({ path, content, truncated: kept.length < bytes.length });
  }
  return { allowed, context };
}
