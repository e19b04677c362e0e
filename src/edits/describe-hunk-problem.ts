import { SAME_LINE_MAX, matchLevel } from './match-level.js';
import type { NormLine } from './normalize-line.js';
import { normalizeLine } from './normalize-line.js';
import type { Hunk } from './parse-unified-diff.js';
import type { HunkProblem } from './hunk-problem.js';

const MAX_QUOTED = 12;

function quoteHunk(hunk: Hunk, only?: (kind: string) => boolean, tail = false): string {
  const lines = hunk.lines.filter((l) => !l.optional && (!only || only(l.kind)));
  const quote = (ls: typeof lines): string[] => ls.map((l) => `    ${l.kind}${l.text}`);
  if (lines.length <= MAX_QUOTED) return quote(lines).join('\n');
  const more = `    … (${lines.length - MAX_QUOTED} more lines)`;
  return (
    tail ? [more, ...quote(lines.slice(-MAX_QUOTED))] : [...quote(lines.slice(0, MAX_QUOTED)), more]
  ).join('\n');
}

/** Up to MAX_QUOTED lines of the hunk around line `at`. */
function quoteAround(hunk: Hunk, at: number): string {
  const from = Math.max(0, Math.min(at - 8, hunk.lines.length - MAX_QUOTED));
  const shown = hunk.lines.slice(from, from + MAX_QUOTED).map((l) => `    ${l.kind}${l.text}`);
  if (from > 0) shown.unshift(`    … (${from} lines before)`);
  const after = hunk.lines.length - from - MAX_QUOTED;
  if (after > 0) shown.push(`    … (${after} more lines)`);
  return shown.join('\n');
}

function numbered(file: readonly NormLine[], from: number, to: number): string {
  const out: string[] = [];
  for (let i = Math.max(0, from); i < Math.min(file.length, to); i++)
    out.push(`    ${String(i + 1).padStart(5)} | ${file[i]?.text ?? ''}`);
  return out.join('\n');
}

/** Where the old side comes closest to matching: the position with the most same lines. */
function nearest(
  file: readonly NormLine[],
  old: readonly NormLine[],
): { at: number; hits: number } {
  let best = { at: -1, hits: 0 };
  for (let at = 0; at + old.length <= file.length; at++) {
    let hits = 0;
    old.forEach((line, i) => {
      const f = file[at + i];
      if (f && !line.trivial && matchLevel(f, line) <= SAME_LINE_MAX) hits++;
    });
    if (hits > best.hits) best = { at, hits };
  }
  return best;
}

/** Is the hunk's new side already in the file exactly? Then the change was applied before. */
function alreadyApplied(file: readonly NormLine[], hunk: Hunk): number | undefined {
  const side = hunk.lines
    .filter((l) => l.kind !== '-' && !l.optional)
    .map((l) => normalizeLine(l.text));
  if (!hunk.lines.some((l) => l.kind === '+')) return undefined;
  for (let at = 0; at + side.length <= file.length; at++) {
    if (side.every((line, i) => file[at + i]?.trimEnd === line.trimEnd)) return at;
  }
  return undefined;
}

/**
 * The refusal for one hunk, written for the LLM that must fix the diff: names the file and hunk,
 * quotes the lines that could not be placed, shows the nearest file lines with their numbers, and
 * says what to send instead.
 */
export function describeHunkProblem(
  path: string,
  hunks: readonly Hunk[],
  problem: HunkProblem,
  file: readonly NormLine[],
): string {
  const hunk = hunks[problem.hunk];
  if (!hunk) return `${path}: hunk ${problem.hunk + 1} is missing`;
  const name = `${path}: hunk ${problem.hunk + 1} (\`${hunk.header}\`)`;
  switch (problem.kind) {
    case 'elided':
      return (
        `${name} replaces real code with a placeholder: the added line \`${problem.marker.trim()}\` stands where the hunk removes code that its new side does not keep:\n` +
        `${quoteAround(hunk, problem.at)}\n` +
        `Applying it would delete these lines and leave the comment:\n${problem.lost
          .slice(0, MAX_QUOTED)
          .map((l) => `    -${l}`)
          .join(
            '\n',
          )}${problem.lost.length > MAX_QUOTED ? `\n    … (${problem.lost.length - MAX_QUOTED} more lines)` : ''}\n` +
        'Write out every line the new version keeps (no "..." or "existing code" placeholders in added lines), or leave those lines out of the hunk as unchanged context.'
      );
    case 'cut':
      return (
        `${name} looks cut off: ${problem.why}. The answer ends inside this hunk (line ${hunk.diffLine} of your answer is its header):\n` +
        `${quoteHunk(hunk, undefined, true)}\n` +
        'Your answer was probably cut off at the output limit, so nothing was written. Send this hunk again complete, with 3 unchanged lines after its last change, and every hunk that should follow it.'
      );
    case 'ambiguous': {
      const lines = problem.positions.slice(0, 6).map((p) => p + 1);
      return (
        `${name} matches equally well at lines ${lines.join(' and ')} of the current file:\n` +
        `${quoteHunk(hunk)}\n` +
        'Include more unchanged lines around the change (3 before and 3 after) so that it matches one place only.'
      );
    }
    case 'no-context':
      return (
        `${name} has no unchanged or removed lines, so it cannot be placed:\n${quoteHunk(hunk)}\n` +
        'Include the 3 unchanged lines before and after the added lines, copied from the current file.'
      );
    case 'conflict':
      return (
        `${name} overlaps hunk ${problem.other + 1} at line ${problem.line + 1}: both change the same lines. ` +
        'Merge them into one hunk, or make sure each line is changed by one hunk only.'
      );
    case 'already-applied':
      return (
        `${name} looks already applied: its added lines are already in the file at line ${problem.line + 1}, ` +
        'between the unchanged lines the hunk quotes. Diff against the current file content; leave this hunk out if the change is already there.'
      );
    case 'indent':
      return (
        `${name} matches the file only with different indentation: ${problem.reason}\n${quoteHunk(hunk)}\n` +
        'Copy the unchanged (" ") and removed ("-") lines with their exact indentation from the current file, and indent the added lines to match.'
      );
    case 'nowhere': {
      const applied = alreadyApplied(file, hunk);
      if (applied !== undefined)
        return (
          `${name} looks already applied: the file already has its new lines at line ${applied + 1}. ` +
          'Diff against the current file content; leave this hunk out if the change is already there.'
        );
      const old = hunk.lines
        .filter((l) => l.kind !== '+' && !l.optional)
        .map((l) => normalizeLine(l.text));
      const near = nearest(file, old);
      const closest =
        near.at < 0
          ? 'No region of the file resembles these lines.'
          : `The closest region of the file is lines ${near.at + 1}-${near.at + old.length}:\n` +
            numbered(file, near.at, near.at + old.length);
      return (
        `${name} does not match the file. Its unchanged and removed lines were not found:\n` +
        `${quoteHunk(hunk, (k) => k !== '+')}\n${closest}\n` +
        'Copy the unchanged (" ") and removed ("-") lines exactly from the current file and send the diff again.'
      );
    }
  }
}
