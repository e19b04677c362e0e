import { AutofixError } from '../errors.js';
import { joinLines } from './join-lines.js';
import type { OutputLine } from './join-lines.js';
import { describeHunkProblem } from './describe-hunk-problem.js';
import { changesBalance, elidedCode } from './elided-code.js';
import type { HunkProblem } from './hunk-problem.js';
import { lastHunkCut } from './last-hunk-cut.js';
import type { AnswerEnding } from './last-hunk-cut.js';
import type { MatchLevel } from './match-level.js';
import { normalizeLine } from './normalize-line.js';
import type { NormLine } from './normalize-line.js';
import type { Hunk, HunkLine } from './parse-unified-diff.js';
import { alreadyInserted } from './already-inserted.js';
import { reindentHunk } from './reindent.js';
import { hunkEffect, placeHunks } from './place-hunks.js';
import type { PlacedBy } from './place-hunks.js';
import { prepareHunk } from './prepare-hunk.js';
import { splitLines } from './split-lines.js';

/** Where one hunk landed and how it was matched. */
export interface HunkReport {
  /** 1-based position of the hunk in the diff. */
  hunk: number;
  header: string;
  /** The old-side line the header claimed, if it had numbers. */
  statedLine?: number;
  /** 1-based file line where the hunk's old side starts. */
  line: number;
  /** `line - statedLine`. */
  offset?: number;
  /** Worst line match: identical, whitespace-only differences, or misquoted context. */
  match: 'exact' | 'whitespace' | 'fuzzy';
  placedBy: PlacedBy;
  /** The added lines were moved by the offset between the hunk's indentation and the file's. */
  reindented?: string;
}

function matchKind(levels: readonly MatchLevel[]): HunkReport['match'] {
  const worst = Math.max(0, ...levels);
  return worst === 0 ? 'exact' : worst <= 3 ? 'whitespace' : 'fuzzy';
}

/**
 * The problems found before any hunk is written: placeholders standing for deleted code
 * (`elided-code.ts`), where each hunk goes, and whether the answer's last hunk, when it is in this
 * file, was cut off (`last-hunk-cut.ts`; a cut explains its placement problems, so it replaces them).
 */
function findProblems(
  norm: readonly NormLine[],
  hunks: readonly Hunk[],
  ending: AnswerEnding | undefined,
): { placed: ReturnType<typeof placeHunks>; problems: HunkProblem[] } {
  const placed = placeHunks(norm, hunks.map(prepareHunk));
  const unbalanced = changesBalance(hunks.flatMap((h) => h.lines));
  const problems: HunkProblem[] = hunks.flatMap((h, hunk) => {
    const elided = elidedCode(h.lines, { unbalanced });
    if (!elided) return [];
    const { marker, index: at, lost } = elided;
    return [{ hunk, kind: 'elided' as const, marker, at, lost }];
  });
  const cut = ending ? lastHunkCut(hunks, placed.placements, norm, ending) : undefined;
  problems.push(...placed.problems.filter((p) => p.hunk !== cut?.hunk));
  if (cut) problems.push(cut);
  return { placed, problems };
}

/**
 * The tolerant unified-diff engine (pure): places every hunk in the file text and returns the new
 * text. Only `-` and `+` lines change the file; context lines, line endings and the final-newline
 * convention stay the file's own. Refuses with INVALID_DIFF, naming the file and quoting the
 * unplaced lines, when any hunk matches nowhere, in several places, or overlaps another hunk; when
 * a hunk replaces real code with a placeholder (`# ... existing code ...`); and, given how the
 * answer ends (`ending`), when its last hunk is in this file and was cut off.
 */
export function applyUnifiedDiff(
  path: string,
  before: string,
  hunks: readonly Hunk[],
  ending?: AnswerEnding,
): { after: string; hunks: HunkReport[] } {
  const file = splitLines(before);
  const norm = file.lines.map(normalizeLine);
  const { placed, problems } = findProblems(norm, hunks, ending);
  const written = new Map<number, { lines: readonly HunkLine[]; shift?: string }>();
  if (problems.length === 0) {
    for (const p of placed.placements) {
      const lines = hunks[p.hunk]?.lines ?? [];
      const stated = hunks[p.hunk]?.oldStart;
      const line = alreadyInserted(
        norm,
        lines,
        p.at,
        p.candidate.levels,
        stated === undefined ? undefined : stated - 1,
      );
      if (line !== undefined) {
        problems.push({ hunk: p.hunk, kind: 'already-applied', line });
        continue;
      }
      const indent = reindentHunk(lines, file.lines, p.at, p.candidate.levels);
      if (indent.kind === 'refused')
        problems.push({ hunk: p.hunk, kind: 'indent', reason: indent.reason });
      else if (indent.kind === 'shifted')
        written.set(p.hunk, { lines: indent.lines, shift: indent.shift });
      else written.set(p.hunk, { lines });
    }
  }
  if (problems.length > 0) {
    const messages = problems
      .sort((a, b) => a.hunk - b.hunk)
      .map((p) => describeHunkProblem(path, hunks, p, norm));
    throw new AutofixError('INVALID_DIFF', messages.join('\n\n'), {
      details: { path, problems },
    });
  }
  const { placements } = placed;

  const del = new Set<number>();
  const ins = new Map<number, string[]>();
  for (const p of placements) {
    const effect = hunkEffect(written.get(p.hunk)?.lines ?? [], p.at);
    for (const d of effect.del) del.add(d);
    for (const [q, lines] of effect.ins) ins.set(q, lines);
  }
  const out: OutputLine[] = [];
  for (let i = 0; i <= file.lines.length; i++) {
    for (const text of ins.get(i) ?? []) out.push({ text });
    const text = file.lines[i];
    if (text !== undefined && !del.has(i)) out.push({ text, eol: file.eols[i] ?? file.eol });
  }

  const reports = placements
    .map((p): HunkReport => {
      const hunk = hunks[p.hunk];
      const stated = hunk?.oldStart;
      const shift = written.get(p.hunk)?.shift;
      return {
        hunk: p.hunk + 1,
        header: hunk?.header ?? '',
        ...(stated === undefined ? {} : { statedLine: stated, offset: p.at + 1 - stated }),
        line: p.at + 1,
        match: matchKind(p.candidate.levels),
        placedBy: p.placedBy,
        ...(shift === undefined ? {} : { reindented: shift }),
      };
    })
    .sort((a, b) => a.hunk - b.hunk);
  return { after: joinLines(out, file.eol, file.finalNewline), hunks: reports };
}
