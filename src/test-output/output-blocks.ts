/**
 * What the runner readers share (pure): indentation, a block's message, stack frames and their
 * place in the repository, summary counts, and failure lines read as marks.
 */
import { repoRelativePath, type Worktree } from '../text/repo-relative-path.js';
import type { Place, TestCounts, TestFailure } from './test-report.js';

/** Message lines kept per finding (a block's first lines say the most). */
export const MAX_MESSAGE_LINES = 20;
/** Lines of one test's block read for its location. */
export const MAX_BLOCK_LINES = 400;

export const indentOf = (line: string): number => /^\s*/.exec(line)![0].length;

/** Lines with a common indentation removed, blank ones at both ends dropped. */
export function dedent(lines: readonly string[]): string {
  const kept = lines.slice(0, MAX_MESSAGE_LINES);
  while (kept.length > 0 && kept[0]!.trim() === '') kept.shift();
  while (kept.length > 0 && kept.at(-1)!.trim() === '') kept.pop();
  const indent = Math.min(...kept.filter((l) => l.trim() !== '').map(indentOf));
  return kept.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join('\n');
}

/** The index after a block that starts at `start`: the first line `ends` says is not in it. */
export function blockEnd(
  lines: readonly string[],
  start: number,
  ends: (line: string) => boolean,
): number {
  let end = start + 1;
  while (end < lines.length && end - start < MAX_BLOCK_LINES && !ends(lines[end]!)) end++;
  return end;
}

/** A printed path and line as a place in the repository, else undefined. */
export function place(
  rawPath: string,
  line: string | number,
  worktree: Worktree,
): Place | undefined {
  const path = repoRelativePath(rawPath, worktree);
  return path ? { path, line: Number(line) } : undefined;
}

/** A stack frame's location: `at f (path:1:2)`, `at path:1:2`, node:test's `f (file:///path:1:2)`. */
const FRAME_PAREN = /\(([^()]+):(\d+):(\d+)\)$/;
const FRAME_BARE = /^\s*at (?:async )?([^\s()][^()]*):(\d+):(\d+)$/;

/** A frame's place when its file is the repository's, else undefined. */
export function frameLocation(line: string, worktree: Worktree): Place | undefined {
  const m = FRAME_PAREN.exec(line.trim()) ?? FRAME_BARE.exec(line);
  return m ? place(m[1]!, m[2]!, worktree) : undefined;
}

/** The first frame of `lines` that the repository owns. */
export function firstOwnFrame(lines: readonly string[], worktree: Worktree): Place | undefined {
  for (const line of lines) {
    const found = frameLocation(line, worktree);
    if (found) return found;
  }
  return undefined;
}

export const isFrame = (line: string): boolean =>
  /^\s*at\s/.test(line) &&
  (FRAME_PAREN.test(line.trim()) || FRAME_BARE.test(line) || /\)$|\bnative\b/.test(line));

/** Jest's and Vitest's code frame: `  > 12 |   expect(x)…` (the pointer marks the failing line). */
export const CODE_FRAME = /^\s*(?:(>)\s*)?(\d+) ?\|/;

/** The number the first line matching `pattern` captures, else undefined. */
export function firstCount(lines: readonly string[], pattern: RegExp): number | undefined {
  for (const line of lines) {
    const m = pattern.exec(line);
    if (m?.[1]) return Number(m[1]);
  }
  return undefined;
}

/** The counts of the first summary lines `failed` and `passed` match. */
export function readCounts(lines: readonly string[], failed: RegExp, passed?: RegExp): TestCounts {
  const f = firstCount(lines, failed);
  const p = passed && firstCount(lines, passed);
  return { ...(f === undefined ? {} : { failed: f }), ...(p === undefined ? {} : { passed: p }) };
}

/**
 * Every line `pattern` matches that no failure read already starts at, as a failure named by
 * what `pattern` captures (a runner's listing: `✕ adds`, `1) adds`, `not ok 2 - adds`): the
 * name, no place or message.
 */
export function marks(
  lines: readonly string[],
  pattern: RegExp,
  read: readonly TestFailure[],
  kind: TestFailure['kind'] = 'test',
): TestFailure[] {
  const taken = new Set(read.filter((f) => f.id !== undefined).map((f) => f.at));
  const out: TestFailure[] = [];
  lines.forEach((line, at) => {
    const id = taken.has(at) ? undefined : pattern.exec(line)?.[1]?.trim();
    if (id) out.push({ at, id, name: id, kind, level: 'failure' });
  });
  return out;
}

/** Failures in output order. */
export const inOrder = <T extends { at: number }>(items: T[]): T[] =>
  items.sort((a, b) => a.at - b.at);
