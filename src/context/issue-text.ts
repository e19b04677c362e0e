/**
 * The issue as a maintainer reads it on GitHub: HTML comments (issue templates are full of
 * `<!-- Please run with --verbose ... -->` instructions that the reporter never wrote) and
 * invisible format characters (a path pasted as `‎lib/x.py‎` between direction marks) are not
 * shown, so they are no evidence either. Pure.
 */
const HTML_COMMENT = /<!--[\s\S]*?-->/g;
/** Zero-width spaces and joiners, direction marks and embeddings, word joiner, byte order mark. */
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060\uFEFF]/g;

export function visibleIssueText(text: string): string {
  return text.replace(HTML_COMMENT, ' ').replace(INVISIBLE, '');
}

/** The issue's title: its first line. */
export const titleOf = (text: string): string => text.split('\n', 1)[0] ?? '';

/** Per line, whether it is a code fence (```, ~~~) or inside fenced code (unclosed runs to the end). */
export function fencedLines(lines: readonly string[]): boolean[] {
  let fenced = false;
  return lines.map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return true;
    }
    return fenced;
  });
}
