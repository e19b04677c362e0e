/**
 * What each path the issue names is here, the way a maintainer reads it: a stack-trace frame
 * in a file of the repository, a file named in the prose, a file the map skipped, a file name
 * (other files of that name), or nothing here (a data file, a folder). The path evidence
 * (`evidence/trace-frames.ts`, `named-files.ts`, `missing-paths.ts`) reads these, in the
 * issue's order.
 */
import type { RepoFile, SkippedFile } from '../build-repo-map.js';
import type { PathMention } from '../extract-issue-refs.js';
import { groupBy } from '../group-by.js';
import type { RankInputs } from './inputs.js';
import { basename, isForeignPath, longestTail } from './path-shapes.js';

export type PathMentionHere =
  /** A frame in files of the repository; `innermost`: its trace's innermost frame here. */
  | { how: 'frame'; mention: PathMention; files: RepoFile[]; innermost: boolean }
  /** A path that names these files. */
  | { how: 'path'; mention: PathMention; files: RepoFile[] }
  /** A file here that the map skipped (binary, too large, …). */
  | { how: 'skipped'; file: SkippedFile }
  /** A path that is no file here, whose file name these files have. */
  | { how: 'basename'; mention: PathMention; files: RepoFile[] }
  /** Nothing here of that name: `p` is the path without leading slashes. */
  | { how: 'absent'; mention: PathMention; p: string };

interface Resolved {
  mention: PathMention;
  /** The path without leading slashes. */
  p: string;
  suffix: (f: string) => boolean;
  exact: RepoFile[];
  /** Files of that path exist but none holds the frame's function. */
  refuted: boolean;
}

/** The files each mention names by its path (its end, or its longest tail of two segments). */
function resolveMentions(
  inputs: RankInputs,
  filesCalled: ReadonlyMap<string, RepoFile[]>,
): Resolved[] {
  const resolved = inputs.refs.paths.map((mention) => {
    const p = mention.path.replace(/^\/+/, '');
    const suffix = (f: string): boolean =>
      f === p || f.endsWith(`/${p}`) || mention.path.endsWith(`/${f}`);
    const called = filesCalled.get(basename(p)) ?? [];
    let exact = called.filter((f) => suffix(f.path));
    // An installed copy (`site-packages/pkg/mod.py`, `node_modules/pkg/lib/x.js`) or another
    // layout (`src/pkg/mod.py`): the files sharing the longest tail of at least two segments.
    if (exact.length === 0) exact = longestTail(called, p);
    // A frame in `fn` is not a file that never mentions `fn`: the user's own `dicom.py`, a
    // bundle's `index.js`, another version of the file.
    const fn = mention.fn;
    const candidates = exact.length;
    if (mention.trace && fn !== undefined) exact = exact.filter((f) => f.content.includes(fn));
    return { mention, p, suffix, exact, refuted: candidates > 0 && exact.length === 0 };
  });
  // …and its frames that name no function are not that file either, unless another of its
  // frames names a function the file holds (a trace from an older version of the same file).
  const confirmed = new Set(
    resolved
      .filter((r) => r.mention.fn !== undefined && r.exact.length > 0)
      .map((r) => r.mention.path),
  );
  const refuted = new Set(
    resolved.filter((r) => r.refuted && !confirmed.has(r.mention.path)).map((r) => r.mention.path),
  );
  for (const r of resolved)
    if (r.mention.trace && refuted.has(r.mention.path)) {
      r.exact = [];
      r.refuted = true;
    }
  return resolved;
}

/** Per trace (a chained error prints one per cause, each raised somewhere), its innermost frame here. */
function innermostFrames(resolved: readonly Resolved[]): Map<number, number> {
  const innermost = new Map<number, number>();
  for (const r of resolved) {
    if (!r.mention.trace || r.exact.length === 0) continue;
    const block = r.mention.block ?? 0;
    innermost.set(block, Math.min(innermost.get(block) ?? Infinity, r.mention.depth ?? 0));
  }
  return innermost;
}

/** What each path the issue names is here, in the order (refuted frames left out). */
export function pathMentionsHere(inputs: RankInputs): PathMentionHere[] {
  // Every way a mention names a file ends with the file's name: only files of that name are tried
  // (a pasted log names hundreds of paths, a large repository has ten thousand files).
  const filesCalled = groupBy(inputs.map.files, (f) => basename(f.path));
  const skippedCalled = groupBy(inputs.map.skipped, (f) => basename(f.path));
  const resolved = resolveMentions(inputs, filesCalled);
  const innermost = innermostFrames(resolved);
  return resolved.flatMap(({ mention, p, suffix, exact, refuted }): PathMentionHere[] => {
    if (refuted) return [];
    if (exact.length > 0 && mention.trace) {
      const inner = (mention.depth ?? 0) === innermost.get(mention.block ?? 0);
      return [{ how: 'frame', mention, files: exact, innermost: inner }];
    }
    if (exact.length > 0) return [{ how: 'path', mention, files: exact }];
    const skipped = skippedCalled.get(basename(p))?.find((s) => suffix(s.path));
    if (skipped) return [{ how: 'skipped', file: skipped }];
    // A frame that is no file here is another package's (`site-packages/numpy/core.py`), not
    // every `core.py` of the repository.
    // Nor is an absolute path outside the repository (`/etc/ansible/ansible.cfg`,
    // `/opt/conda/lib/python3.9/site-packages/torch/__init__.py`) every file of that name here.
    if (mention.trace || isForeignPath(mention.path)) return [];
    const sameName = p.includes('.') ? (filesCalled.get(basename(p)) ?? []) : [];
    return sameName.length > 0
      ? [{ how: 'basename', mention, files: sameName }]
      : [{ how: 'absent', mention, p }];
  });
}

/** The files the issue names that the map skipped, each once. */
export const unavailableFiles = (mentions: readonly PathMentionHere[]): SkippedFile[] => [
  ...new Set(mentions.flatMap((m) => (m.how === 'skipped' ? [m.file] : []))),
];
