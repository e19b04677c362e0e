import type { DiffHunk } from './diff-model.js';

/**
 * A hunk that rewrites a block the way models often do: every line of `old[from..to)` removed and
 * the block's new version added, with up to `context` unchanged lines on each side. `offset` is
 * what the earlier hunks of the file added to its line numbers (new start − old start).
 */
export function rewriteHunk(
  old: readonly string[],
  from: number,
  to: number,
  added: readonly string[],
  context: number,
  offset: number,
): DiffHunk {
  const lead = old.slice(Math.max(0, from - context), from);
  const trail = old.slice(to, to + context);
  const oldStart = from - lead.length + 1;
  const oldCount = lead.length + (to - from) + trail.length;
  const newCount = lead.length + added.length + trail.length;
  return {
    header: `@@ -${oldStart},${oldCount} +${oldStart + offset},${newCount} @@`,
    lines: [
      ...lead.map((l) => ` ${l}`),
      ...old.slice(from, to).map((l) => `-${l}`),
      ...added.map((l) => `+${l}`),
      ...trail.map((l) => ` ${l}`),
    ],
  };
}

/** A file's text as lines, without the empty string after a final newline. */
export function linesOf(text: string): string[] {
  return text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
}

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** A gold hunk's old span: 0-based start, line count, and new start − old start. */
export function spanOf(hunk: DiffHunk): { start: number; count: number; offset: number } {
  const m = HEADER.exec(hunk.header);
  const oldStart = Number(m?.[1] ?? 1);
  const count = m?.[2] === undefined ? 1 : Number(m[2]);
  return { start: oldStart - 1, count, offset: Number(m?.[3] ?? 1) - oldStart };
}
