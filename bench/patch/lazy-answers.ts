import { commentText } from '../../src/edits/comment-text.js';
import * as D from './damage.js';
import { cloneDiff, formatGitDiff } from './diff-model.js';
import type { DiffFile } from './diff-model.js';
import type { Rng } from './prng.js';
import { linesOf, rewriteHunk, spanOf } from './rewrite-hunk.js';

/**
 * "Lazy" answers made from a gold diff: one hunk of a file that exists before is rewritten as a
 * model rewrites a block (the block removed, its new version added, a few lines wider than git's
 * hunk), and a run of 1-5 of its unchanged lines, at least one of them code, is replaced in the
 * added lines by a placeholder in the file's comment style. Applied literally, that run is
 * deleted and the comment written: the file the model meant is lost.
 */

const PLACEHOLDERS = {
  py: [
    '# ... existing code ...',
    '# ...',
    '# rest of the function unchanged',
    '# ... (unchanged) ...',
    '...',
    '# existing code',
    '# … rest unchanged',
    '# ... keep the existing logic ...',
  ],
  js: [
    '// ... existing code ...',
    '// ...',
    '// rest of the function unchanged',
    '/* ... */',
    '// … existing code …',
    '// existing code remains the same',
    '// ... rest of the method ...',
    '// ... other cases unchanged ...',
  ],
} as const;

const langOf = (path: string): 'py' | 'js' => (path.endsWith('.py') ? 'py' : 'js');
const indentOf = (line: string): string => /^\s*/.exec(line)?.[0] ?? '';
const isCode = (line: string): boolean => line.trim() !== '' && commentText(line) === undefined;
const pathOf = (f: DiffFile): string =>
  (f.header.find((l) => l.startsWith('--- a/')) ?? '--- a/').slice(6).split('\t')[0] ?? '';

/** The rewritten block of one gold hunk, `extra` lines wider on each side where the file allows. */
function widened(
  file: DiffFile,
  index: number,
  old: readonly string[],
  extra: number,
): { from: number; to: number; added: string[]; unchanged: boolean[]; offset: number } {
  const hunk = file.hunks[index]!;
  const { start, count, offset } = spanOf(hunk);
  const prev = file.hunks[index - 1];
  const next = file.hunks[index + 1];
  // Room for up to 3 lines of context without touching the neighbouring hunks' lines.
  const floor = prev ? spanOf(prev).start + spanOf(prev).count + 3 : 0;
  const ceiling = next ? spanOf(next).start - 3 : old.length;
  const from = Math.min(start, Math.max(floor, start - extra));
  const to = Math.max(start + count, Math.min(ceiling, start + count + extra));
  const added: string[] = [];
  const unchanged: boolean[] = [];
  const keep = (l: string, same: boolean): void => {
    added.push(l);
    unchanged.push(same);
  };
  for (const l of old.slice(from, start)) keep(l, true);
  for (const l of hunk.lines) {
    if (l.startsWith(' ')) keep(l.slice(1), true);
    else if (l.startsWith('+')) keep(l.slice(1), false);
  }
  for (const l of old.slice(start + count, to)) keep(l, true);
  return { from, to, added, unchanged, offset };
}

/** Runs of 1-5 unchanged added lines holding code; at the block's end when `tail`. */
function runs(block: ReturnType<typeof widened>, tail: boolean): [number, number][] {
  const out: [number, number][] = [];
  const n = block.added.length;
  for (let s = 0; s < n; s++)
    for (let len = 1; len <= 5 && s + len <= n; len++) {
      if (tail && s + len !== n) continue;
      const slice = block.added.slice(s, s + len);
      if (block.unchanged.slice(s, s + len).every(Boolean) && slice.some(isCode))
        out.push([s, s + len]);
    }
  return out;
}

/**
 * One lazy answer from `gold` (numbered or bare `@@ @@` headers), or undefined when no hunk of a
 * file that exists before has unchanged code to elide.
 */
export function lazyAnswer(
  gold: readonly DiffFile[],
  original: ReadonlyMap<string, string>,
  bare: boolean,
  rng: Rng,
): string | undefined {
  const files = cloneDiff(gold);
  D.dropHeadings(files, rng);
  const choices = files.flatMap((f, fi) =>
    original.has(pathOf(f)) && !f.header.some((l) => l === '+++ /dev/null')
      ? f.hunks.map((_, hi) => [fi, hi] as const)
      : [],
  );
  for (const [fi, hi] of rng.shuffle(choices)) {
    const file = files[fi]!;
    const old = linesOf(original.get(pathOf(file)) ?? '');
    const block = widened(file, hi, old, rng.int(0, 4));
    const tail = rng.chance(0.3);
    const options = tail && runs(block, true).length > 0 ? runs(block, true) : runs(block, false);
    if (options.length === 0) continue;
    const [s, e] = rng.pick(options);
    const first = block.added.slice(s, e).find((l) => l.trim() !== '') ?? '';
    const marker = indentOf(first) + rng.pick(PLACEHOLDERS[langOf(pathOf(file))]);
    const lazy = [...block.added.slice(0, s), marker, ...block.added.slice(e)];
    file.hunks[hi] = rewriteHunk(old, block.from, block.to, lazy, rng.int(1, 3), block.offset);
    if (bare) D.bareHeaders(files, rng);
    return formatGitDiff(files);
  }
  return undefined;
}
