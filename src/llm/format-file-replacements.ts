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

/** The newest entry of each path, in the order of their latest change. */
export function latestChanges(changes: readonly ChangedFile[]): ChangedFile[] {
  const latest = new Map<string, ChangedFile>();
  for (const change of changes) {
    latest.delete(change.path); // re-insert so the order follows the latest change
    latest.set(change.path, change);
  }
  return [...latest.values()];
}

/** `show` renders a file's content (default: all of it, fenced). */
export function formatFileReplacements(
  changes: readonly ChangedFile[],
  show: (file: { path: string; content: string }) => string = (file) => fence(file.content),
): string {
  const latest = latestChanges(changes);
  if (latest.length === 0) return '(no files changed yet)';
  return latest
    .map((c) =>
      c.content === undefined
        ? `--- FILE REMOVED ${c.path} ---`
        : `--- FILE REPLACEMENT ${c.path} ---\n${show({ path: c.path, content: c.content })}`,
    )
    .join('\n\n');
}
