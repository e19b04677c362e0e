import { formatPatch, structuredPatch } from 'diff';

/** One file's text before and after; `before` undefined = created, `after` undefined = deleted. */
export interface DiffEntry {
  path: string;
  before?: string;
  after?: string;
}

/**
 * A clean git-style unified diff of the final contents (jsdiff), whatever format the LLM used:
 * correct headers, counts and context, so `git apply --check`, reviewers and the commit all see
 * exactly what will be written.
 */
export function renderDiff(entries: readonly DiffEntry[]): string {
  return entries
    .filter((e) => e.before !== e.after)
    .map((e) => {
      const created = e.before === undefined;
      const deleted = e.after === undefined;
      const patch = structuredPatch(
        created ? '/dev/null' : `a/${e.path}`,
        deleted ? '/dev/null' : `b/${e.path}`,
        e.before ?? '',
        e.after ?? '',
        undefined,
        undefined,
        { context: 3 },
      );
      return formatPatch({
        ...patch,
        isGit: true,
        ...(created ? { isCreate: true } : {}),
        ...(deleted ? { isDelete: true } : {}),
      });
    })
    .join('');
}
