/**
 * The files the ranking suggests after those the code context shows whole: the tool loop's opening
 * message names them, so a model that needs more than the view starts from the ranking's next
 * files instead of guessing (`bench:agent` measures how often the file a fix needs is there).
 */
import type { ContextFile } from './build-code-context.js';

/**
 * A path the list may show as it is: a repository names its files, so one with a line break, a
 * control character or a backtick (text that could pose as the prompt's own) is left out.
 */
const plainPath = (path: string): boolean =>
  ![...path].some((c) => c === '`' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

export interface FileToReadNext {
  path: string;
  /** The code context shows part of it (cut to fit the budget). */
  partial: boolean;
}

/**
 * Files the ranking put next, in its order: those the code context (`shown`) does not show whole
 * (absent, or cut to fit), at most `count`.
 */
export function filesToReadNext(
  ranked: readonly string[],
  shown: readonly Pick<ContextFile, 'path' | 'truncated'>[],
  count = 10,
): FileToReadNext[] {
  const inContext = new Map(shown.map((f) => [f.path, f.truncated]));
  return ranked
    .filter((path) => plainPath(path) && inContext.get(path) !== false)
    .slice(0, count)
    .map((path) => ({ path, partial: inContext.has(path) }));
}

/** The list as the prompt shows it: one quoted path a line, or `(none)`. */
export function renderFilesToReadNext(files: readonly FileToReadNext[]): string {
  return files.length === 0
    ? '(none)'
    : files.map((f) => `- \`${f.path}\`${f.partial ? ' (shown in part above)' : ''}`).join('\n');
}
