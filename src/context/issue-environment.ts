/**
 * The reporter's description of their machine: an "Environment" / "Versions" / "OS" section,
 * `Python version: 3.11` lines, a pasted `pip list`. It says where the bug was seen, not where
 * it is in the code: the tool's `--version` output names its own entry point and configuration
 * files, a package list names every dependency. Pure.
 */
import { fencedLines } from './issue-text.js';

/** A heading line: Markdown (`### Versions`), a bold line (`**Environment**`) or `OS:` alone. */
const HEADING = /^\s*(?:#{1,6}\s+(.+?)\s*#*\s*$|\*\*([^*\n]+?):?\*\*:?\s*$|__([^_\n]+?)__\s*$)/;
/**
 * `Environment:` alone on a line, at its start (indented, it is a key of pasted YAML), or a line
 * of capitals (`STEPS TO REPRODUCE`: a template's heading that lost its `#####`).
 */
const BARE_LABEL = /^(?:([A-Za-z][\w /()-]{1,40}):|([A-Z][A-Z/&-]+(?: [A-Z/&-]+){0,3}))\s*$/;
/** What such a section is called. */
const ENVIRONMENT =
  /^(?:(?:os|operating system|platform|system|software|package|library|dependency|python|[\w-]+)\s*(?:\/\s*)?)?(?:environment|versions?|version info(?:rmation)?|system info(?:rmation)?|os|operating system|platform|installation|configuration|setup details|dependencies)$/i;
/**
 * `- OS: Ubuntu 22.04`, `Python version: 3.11.2`, `**pandas version**: 2.1.0`, `jinja version =
 * 3.1.2` (with `=`, only a version number: `node = parse(x)` is code).
 */
const LABEL_LINE =
  /^\s*(?:[-*+]\s+)?(?:\*\*|__)?(?:(?:os|operating system|platform|python|node|npm|browser|kernel|distribution|distro|arch|architecture)(?:\s+version)?|(?:[\w.-]+\s+)?version)(?:\*\*|__)?\s*(?::\s*\S|=\s*v?\d)/i;
/** `numpy: 1.26.0`, `numpy==1.26.0`, `numpy  1.26.0  pypi_0  pypi` (a package list's line). */
const PACKAGE_LINE =
  /^\s*(?:[-*+]\s+)?[A-Za-z][\w.-]*\s*(?::\s*|==\s*|\s{2,}|\s+v?)v?\d+(?:\.\w+)+\S*(?:\s+\S+){0,3}\s*$/;
/** This many package lines in a row are a package list. */
const PACKAGE_RUN = 3;

/** Eight words or more and no version number: prose, not a report of versions. */
const isProse = (line: string): boolean =>
  line.trim().split(/\s+/).length >= 8 && !/\d+\.\d+/.test(line) && !/^\s*[|>]/.test(line);

const headingText = (line: string): string | undefined => {
  const m = HEADING.exec(line) ?? BARE_LABEL.exec(line);
  const text = m?.slice(1).find((g) => g !== undefined);
  return text?.replace(/[*_`]/g, '').replace(/:\s*$/, '').replace(/\s+/g, ' ').trim();
};

/**
 * The issue without its environment sections (from such a heading to the next heading, code
 * fences included), its version lines and its package lists. The title (first line) stays.
 */
export function withoutEnvironment(issueText: string): string {
  const lines = issueText.split('\n');
  const fenced = fencedLines(lines);
  const drop = lines.map(() => false);
  let inSection = false;
  lines.forEach((line, i) => {
    if (i === 0) return;
    const heading = fenced[i] ? undefined : headingText(line);
    if (heading !== undefined) inSection = ENVIRONMENT.test(heading);
    // A sentence of the reporter's own stays, also under such a heading ("The problem is in
    // `jsonrep.py` at line 227"): a section ends where nothing says it does.
    const prose = !fenced[i] && isProse(line);
    if ((inSection && !prose) || LABEL_LINE.test(line)) drop[i] = true;
  });
  // Package lists, inside fences or not.
  for (let i = 1; i < lines.length;) {
    let j = i;
    while (j < lines.length && PACKAGE_LINE.test(lines[j] ?? '')) j++;
    if (j - i >= PACKAGE_RUN) for (let k = i; k < j; k++) drop[k] = true;
    i = Math.max(j, i + 1);
  }
  return drop.some(Boolean) ? lines.filter((_, i) => !drop[i]).join('\n') : issueText;
}
