/**
 * The fixer's `{{changed_files}}`: the latest version of every file changed so far, in seed
 * 000's layout (`--- FILE REPLACEMENT path ---` / `--- FILE REMOVED path ---`). Later entries
 * for a path replace earlier ones, so only the newest version is shown.
 */
import { fence } from './quote-untrusted.js';

export interface ChangedFile {
  path: string;
  /** New content; undefined when the file was removed. */
  content?: string | undefined;
}

export function formatFileReplacements(changes: readonly ChangedFile[]): string {
  const latest = new Map<string, ChangedFile>();
  for (const change of changes) {
    latest.delete(change.path); // re-insert so the order follows the latest change
    latest.set(change.path, change);
  }
  if (latest.size === 0) return '(no files changed yet)';
  return [...latest.values()]
    .map((c) =>
      c.content === undefined
        ? `--- FILE REMOVED ${c.path} ---`
        : `--- FILE REPLACEMENT ${c.path} ---\n${fence(c.content)}`,
    )
    .join('\n\n');
}
