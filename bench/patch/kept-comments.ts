import { commentText } from '../../src/edits/comment-text.js';
import { isElisionMarker } from '../../src/edits/is-elision-marker.js';
import { formatGitDiff } from './diff-model.js';
import type { Rng } from './prng.js';
import { linesOf, rewriteHunk } from './rewrite-hunk.js';

/**
 * The other side of the placeholder rule, on real code: a line of a real file that looks like a
 * placeholder (a comment with `...`/`…` in it, `# ...`, a Python `...` body) and a code line at
 * most 5 lines from it that gets a trailing comment; half the time a new comment with `...` in it
 * (`TODO: ...`, `see ... for details`) goes above that line too. The diff rewrites the block that
 * holds them, so the placeholder-like lines are added lines of a hunk that also removes code: a
 * correct diff that must be applied exactly.
 */

const NEW_COMMENTS = {
  py: ['# TODO: ...', '# see ... for details', '# ... (kept for compatibility)'],
  js: ['// TODO: ...', '// see ... for details', '/* ... kept for compatibility ... */'],
} as const;

const looksElided = (line: string): boolean =>
  isElisionMarker(line) || /\.\.\.|…/.test(commentText(line) ?? '');

/** Whether a source holds a line that looks like a placeholder. */
export const hasPlaceholderLike = (text: string): boolean => text.split('\n').some(looksElided);

const isCode = (line: string): boolean =>
  line.trim() !== '' && commentText(line) === undefined && !/\\$/.test(line);

/** One such edit in one of `original`'s files: the intended tree and the rewrite diff. */
export function keptComments(
  original: ReadonlyMap<string, string>,
  rng: Rng,
): { intended: Map<string, string>; diff: string } | undefined {
  for (const path of rng.shuffle([...original.keys()])) {
    const old = linesOf(original.get(path) ?? '');
    const lang = path.endsWith('.py') ? 'py' : 'js';
    const spots = old.flatMap((l, m) => (looksElided(l) ? [m] : []));
    for (const m of rng.shuffle(spots).slice(0, 4)) {
      const near = old.flatMap((l, t) => (Math.abs(t - m) <= 5 && t !== m && isCode(l) ? [t] : []));
      if (near.length === 0) continue;
      const t = rng.pick(near);
      const line = old[t] ?? '';
      const note = lang === 'py' ? '  # reviewed' : ' // reviewed';
      const above = rng.chance(0.5)
        ? [`${/^\s*/.exec(line)?.[0] ?? ''}${rng.pick(NEW_COMMENTS[lang])}`]
        : [];
      const from = Math.max(0, Math.min(m, t) - rng.int(0, 2));
      const to = Math.min(old.length, Math.max(m, t) + 1 + rng.int(0, 2));
      const added = [...old.slice(from, t), ...above, line + note, ...old.slice(t + 1, to)];
      const next = [...old.slice(0, from), ...added, ...old.slice(to)];
      const hunk = rewriteHunk(old, from, to, added, rng.int(1, 3), 0);
      const header = [`diff --git a/${path} b/${path}`, `--- a/${path}`, `+++ b/${path}`];
      return {
        intended: new Map(original).set(path, `${next.join('\n')}\n`),
        diff: formatGitDiff([{ header, hunks: [hunk] }]),
      };
    }
  }
  return undefined;
}
