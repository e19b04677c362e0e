import * as D from './damage.js';
import { cloneDiff, formatGitDiff } from './diff-model.js';
import type { DiffFile } from './diff-model.js';
import type { Rng } from './prng.js';

/**
 * Answers cut off at a model's output limit, made from a gold diff: the text up to a point inside
 * a hunk, everything after it (the rest of the hunk, later hunks and files) lost.
 *
 * - after-removed: right after a `-` line whose `+` replacement follows in the gold hunk;
 * - mid-added: in the middle of a `+` line (at least one character of it written, one missing);
 * - mid-hunk: anywhere inside a hunk after which the gold hunk still changes something: half the
 *   time in the middle of the next line, else at a line end — but only where fewer than 3
 *   unchanged lines follow the last change so far (a hunk that already ends with its full context
 *   at a line end is, to every reader, complete: only the server's finish reason can tell);
 * - trailing-context: inside the trailing context of the diff's last hunk (nothing is lost).
 *
 * Only files that exist before are cut: a new file has no context, so whether its last line is
 * complete is often undecidable from the text. Line-end cuts keep the newline half the time.
 */
export type CutKind = 'after-removed' | 'mid-added' | 'mid-hunk' | 'trailing-context';

interface CutPoint {
  file: number;
  hunk: number;
  /** Index of the last hunk line kept (whole, or `chars` of it when set). */
  line: number;
  chars?: number;
}

const isCreation = (f: DiffFile): boolean =>
  f.header.some((l) => l === '--- /dev/null' || l.startsWith('new file mode'));

/** After line `i`, the hunk still changes something: a `-`/`+` line comes later. */
const changesAfter = (lines: readonly string[], i: number): boolean =>
  lines.slice(i + 1).some((l) => /^[-+]/.test(l));

/** Unchanged lines at the end of lines[0..i] (since the last change). */
function contextRun(lines: readonly string[], i: number): number {
  let n = 0;
  for (let k = i; k >= 0 && !/^[-+]/.test(lines[k] ?? ''); k--) n++;
  return n;
}

function pointsOf(files: readonly DiffFile[], kind: CutKind, rng: Rng): CutPoint[] {
  const points: CutPoint[] = [];
  const lastFile = files.length - 1;
  files.forEach((f, file) => {
    if (isCreation(f)) return;
    f.hunks.forEach((h, hunk) => {
      const lastHunk = file === lastFile && hunk === f.hunks.length - 1;
      h.lines.forEach((l, line) => {
        const next = h.lines[line + 1] ?? '';
        if (kind === 'after-removed' && l.startsWith('-') && /^[-+]/.test(next)) {
          const rest = h.lines.slice(line + 1);
          const runEnd = rest.findIndex((x) => !/^[-+]/.test(x));
          if (rest.slice(0, runEnd < 0 ? undefined : runEnd).some((x) => x.startsWith('+')))
            points.push({ file, hunk, line });
        } else if (kind === 'mid-added' && l.startsWith('+') && l.trim().length >= 4) {
          points.push({ file, hunk, line, chars: rng.int(2, l.length - 1) });
        } else if (kind === 'mid-hunk' && changesAfter(h.lines, line)) {
          const next = h.lines[line + 1] ?? '';
          const inNext = next.length >= 3 && (contextRun(h.lines, line) >= 3 || rng.chance(0.5));
          if (inNext)
            points.push({ file, hunk, line: line + 1, chars: rng.int(2, next.length - 1) });
          else if (contextRun(h.lines, line) < 3) points.push({ file, hunk, line });
        } else if (kind === 'trailing-context' && lastHunk && !changesAfter(h.lines, line)) {
          if (line < h.lines.length - 1) points.push({ file, hunk, line });
        }
      });
    });
  });
  return points;
}

/** The diff text up to `p`: earlier files whole, then the cut file up to the cut line. */
function cutText(files: readonly DiffFile[], p: CutPoint, newline: boolean): string {
  const f = files[p.file]!;
  const h = f.hunks[p.hunk]!;
  const kept: DiffFile = {
    header: f.header,
    hunks: [...f.hunks.slice(0, p.hunk), { header: h.header, lines: h.lines.slice(0, p.line) }],
  };
  const line = h.lines[p.line] ?? '';
  const tail = p.chars === undefined ? line + (newline ? '\n' : '') : line.slice(0, p.chars);
  return formatGitDiff([...files.slice(0, p.file), kept]) + tail;
}

/**
 * One cut answer of `kind` from `gold` (numbered headers as git wrote them, or bare `@@ @@`), or
 * undefined when the diff offers no such place.
 */
export function cutAnswer(
  gold: readonly DiffFile[],
  kind: CutKind,
  bare: boolean,
  rng: Rng,
): string | undefined {
  const files = cloneDiff(gold);
  D.dropHeadings(files, rng);
  if (bare) D.bareHeaders(files, rng);
  const points = pointsOf(files, kind, rng);
  if (points.length === 0) return undefined;
  const point = rng.pick(points);
  const next = files[point.file]?.hunks[point.hunk]?.lines[point.line + 1] ?? '';
  // In the trailing context, half the cuts stop in the middle of the next line.
  if (kind === 'trailing-context' && next.length >= 3 && rng.chance(0.5))
    return cutText(
      files,
      { ...point, line: point.line + 1, chars: rng.int(2, next.length - 1) },
      false,
    );
  return cutText(files, point, rng.chance(0.5));
}
