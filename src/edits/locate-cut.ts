import type { EditFormat } from '../config/repo-config.js';
import { jsonCut } from './json-cut.js';
import { parseUnifiedDiff } from './parse-unified-diff.js';
import type { AnswerCut } from './types.js';

/** Where a cut-off answer stops, and the part before it that arrived complete. */
export interface CutPoint {
  cut: AnswerCut;
  /** The answer's text up to the part that was being written when it stopped (may be empty). */
  keep: string;
}

const linesOf = (text: string): string[] => text.split('\n');

/** udiff: the last hunk may be incomplete; everything before it (and its file's header) is kept. */
function udiffCut(text: string): CutPoint {
  const patches = parseUnifiedDiff(text);
  const patch = patches[patches.length - 1];
  const hunk = patch?.hunks[patch.hunks.length - 1];
  const path = patch ? (patch.newPath ?? patch.oldPath ?? patch.gitPaths?.[1]) : undefined;
  if (!patch) return { cut: { why: 'it stops before any diff' }, keep: '' };
  const first = !hunk || patch.hunks.length === 1;
  const from = first ? patch.diffLine : hunk.diffLine;
  return {
    cut: {
      ...(path === undefined ? {} : { path: path.replace(/^b\//, '') }),
      ...(hunk ? { hunk: patch.hunks.length } : {}),
      line: from,
      why: hunk
        ? `it stops in hunk ${patch.hunks.length} of that file`
        : 'it stops in the header of that file',
    },
    keep: linesOf(text)
      .slice(0, from - 1)
      .join('\n'),
  };
}

/** Where each `^^^<path>` block starts, the last one, and the one still open at the end. */
function blocks(lines: readonly string[]): {
  starts: Map<string, number>;
  last?: string;
  open?: string;
} {
  const starts = new Map<string, number>();
  let open: string | undefined;
  let last: string | undefined;
  lines.forEach((line, i) => {
    const word = /^\s*\^\^\^\s*(.*?)\s*$/.exec(line)?.[1];
    if (word === undefined) return;
    if (/^(end|delete)$/i.test(word)) open = undefined;
    else {
      starts.set(word, i);
      open = last = word;
    }
  });
  return {
    starts,
    ...(last === undefined ? {} : { last }),
    ...(open === undefined ? {} : { open }),
  };
}

/**
 * fenced-files: the file blocks before the one being written are kept; that file is resent whole.
 * The block being written is the one left open; else `path`'s, when the engine found its content
 * cut although its block is closed; else the last one (the server says the answer was cut, so
 * its last block is not trusted either). A closed block being rewritten is dropped from the kept part.
 */
function fencedCut(text: string, path?: string): CutPoint {
  const lines = linesOf(text);
  const { starts, open, last } = blocks(lines);
  const file = open ?? (path !== undefined && starts.has(path) ? path : last);
  const at = file === undefined ? undefined : starts.get(file);
  if (file === undefined || at === undefined)
    return { cut: { why: 'it stops after its last closed block' }, keep: text };
  const end = lines.findIndex((l, i) => i > at && /^\s*\^\^\^\s*(end|delete)\s*$/i.test(l));
  const rest = open === undefined && end >= 0 ? lines.slice(end + 1) : [];
  return {
    cut: { path: file, line: at + 1, why: `it stops inside the block for \`${file}\`` },
    keep: [...lines.slice(0, at), ...rest].join('\n'),
  };
}

/**
 * Where an answer known to be cut off (the server said so) stops, in the terms of its format,
 * and what of it can be kept: the complete hunks or file blocks before the part being written.
 * A JSON answer keeps nothing (a cut JSON is no JSON at all). `path`: a file the engine found cut
 * in a block that is closed.
 */
export function locateCut(format: EditFormat, text: string, path?: string): CutPoint {
  switch (format) {
    case 'udiff':
      return udiffCut(text);
    case 'fenced-files':
      return fencedCut(text, path);
    case 'json-writes':
    case 'edit-ops':
      return { cut: jsonCut(text) ?? { why: 'it stops at the output limit' }, keep: '' };
  }
}
