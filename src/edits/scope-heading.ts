import type { NormLine } from './normalize-line.js';

/** Git's default hunk heading: the nearest line above that starts with a letter, `_` or `$`. */
export function gitHeadingLines(file: readonly NormLine[]): number[] {
  const before: number[] = [];
  let last = -1;
  file.forEach((line, i) => {
    before.push(last);
    if (/^[A-Za-z_$]/.test(line.text)) last = i;
  });
  return before;
}

const indentOf = (line: NormLine): number => line.cols[1];

/**
 * Does the hunk whose old side starts at file line `at` sit under `heading`? Either as git names
 * it (the nearest unindented line above starts with it), or as a scope (apply_patch's
 * `@@ def f():`): a line starting with the heading opens a block that still encloses `at`, i.e.
 * every non-blank line after it up to `at` is indented deeper (a closing `}` at the heading's
 * own depth ends the block). The hunk may also start on the heading line itself.
 */
export function underHeading(
  file: readonly NormLine[],
  gitBefore: readonly number[],
  at: number,
  heading: string,
): boolean {
  const git = file[gitBefore[at] ?? -1]?.trimEnd;
  if (git !== undefined && git !== '' && (git.startsWith(heading) || heading.startsWith(git)))
    return true;
  let depth = Infinity;
  for (let j = Math.min(at, file.length - 1); j >= 0 && depth > 0; j--) {
    const line = file[j];
    if (!line || line.body === '') continue;
    const indent = indentOf(line);
    if (j < at && indent >= depth) continue; // a sibling or a nested block above `at`
    if (line.body.startsWith(heading)) return true;
    depth = indent;
  }
  return false;
}
