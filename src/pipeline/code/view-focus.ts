/**
 * What a file view (file-view.ts) centres on: the issue's and plan's words, the lines a change
 * touched, and the lines a failure points at. Pure.
 */
import { diffLines } from 'diff';
import type { FixPlan } from '../../contracts.js';
import { extractIssueRefs } from '../../context/extract-issue-refs.js';
import { termQuery } from '../../context/split-words.js';
import type { IssueInput } from '../ports.js';
import type { FileFocus } from './file-view.js';

/** Beyond this many edits the change is a rewrite: every line is "touched", none stands out. */
const MAX_EDITS = 2_000;

/** Words and identifiers of the issue, the maintainer's instructions, the plan steps and `extra`. */
export function focusTerms(
  issue: IssueInput,
  plan: FixPlan,
  extra = '',
): Pick<FileFocus, 'terms' | 'identifiers'> {
  const text = [
    issue.title,
    issue.body,
    issue.instructions ?? '',
    ...plan.plan_steps.map((s) => s.description),
    extra,
  ].join('\n');
  return { terms: termQuery(text), identifiers: extractIssueRefs(text).identifiers };
}

/**
 * 1-based ranges of `latest` that differ from `original`: added lines, and the two lines either
 * side of a removal. Empty for a new file or a rewrite (more than MAX_EDITS edits).
 */
export function touchedRanges(original: string | undefined, latest: string): [number, number][] {
  if (original === undefined || original === '') return [];
  const parts = diffLines(original, latest, { maxEditLength: MAX_EDITS });
  if (!parts) return [];
  const ranges: [number, number][] = [];
  let line = 1; // the next line of `latest`
  for (const part of parts) {
    const count = part.count;
    if (part.added) {
      ranges.push([line, line + count - 1]);
      line += count;
    } else if (part.removed) {
      ranges.push([Math.max(1, line - 1), line]);
    } else {
      line += count;
    }
  }
  return ranges;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Lines of `path` that tool output points at: `path:12`, `path:12:5`, `path(12,5)` (tsc),
 * `File "path", line 12` (Python), with any directory before the path (absolute paths).
 */
export function referencedLines(output: string, path: string): number[] {
  const pattern = new RegExp(
    `(?:^|[^\\w.-])${escapeRegExp(path)}(?::(\\d+)|\\((\\d+)|", line (\\d+))`,
    'gm',
  );
  const lines = new Set<number>();
  for (const m of output.matchAll(pattern)) lines.add(Number(m[1] ?? m[2] ?? m[3]));
  return [...lines].filter((n) => n > 0).sort((a, b) => a - b);
}
