/**
 * TAP (pure), as tape, node-tap, Mocha's TAP reporter and node:test print it: `not ok 2 - name`,
 * then, indented, a YAML block (`---` … `...`: `at:`, `location:`, `error:`, `expected:`,
 * `actual:`, `stack:`) or plain lines (a message and a stack), and `# fail 1` / `# pass 3`.
 * A failure is placed at tape's `at:`, else its stack's first frame in the repository, else
 * node:test's `location:` (where the test is declared, not where it failed). A `# TODO` test is
 * expected to fail (no place: no annotation), and a parent whose subtests failed is a suite
 * (they carry the details).
 */
import type { Worktree } from '../text/repo-relative-path.js';
import {
  blockEnd,
  dedent,
  frameLocation,
  firstOwnFrame,
  indentOf,
  inOrder,
  isFrame,
  marks,
  MAX_MESSAGE_LINES,
  readCounts,
} from './output-blocks.js';
import type { Place, TestCounts, TestFailure } from './test-report.js';

const NOT_OK = /^(\s*)not ok \d+\b(?:\s*-)?\s*(.*)$/;
/** How a `not ok` line names its failure. */
export const NOT_OK_ID = /^\s*not ok \d+\s*-?\s*(\S.*)$/;
export const TAP_SIGNS =
  /^[ \t]*not ok \d+|^[ \t]*ok \d+|^TAP version|^#[ \t]*(?:fail|pass|tests)[ \t]+\d+/;

/** A YAML field of a diagnostic block: inline (quotes dropped) or a `|-` block. */
function yamlValue(body: readonly string[], key: string): string | undefined {
  const at = body.findIndex((l) => l.trimStart().startsWith(`${key}:`));
  if (at < 0) return undefined;
  const line = body[at]!;
  const inline = line.slice(line.indexOf(':') + 1).trim();
  if (!/^[|>][-+]?$/.test(inline)) return inline.replace(/^(['"])(.*)\1$/, '$2');
  const indent = indentOf(line);
  const block: string[] = [];
  for (let j = at + 1; j < body.length && block.length < MAX_MESSAGE_LINES; j++) {
    if (body[j]!.trim() !== '' && indentOf(body[j]!) <= indent) break;
    block.push(body[j]!);
  }
  return dedent(block);
}

function locationOf(body: readonly string[], yaml: boolean, worktree: Worktree): Place | undefined {
  const atField = yaml ? yamlValue(body, 'at') : undefined;
  const locationField = yaml ? yamlValue(body, 'location') : undefined;
  return (
    (atField ? frameLocation(`(${atField.replace(/^.*\(|\)$/g, '')})`, worktree) : undefined) ??
    firstOwnFrame(body, worktree) ??
    (locationField ? frameLocation(`(${locationField})`, worktree) : undefined)
  );
}

function detailOf(body: readonly string[], yaml: boolean): string {
  if (!yaml) return dedent(body.filter((l) => !isFrame(l)));
  const expected = yamlValue(body, 'expected');
  const actual = yamlValue(body, 'actual');
  return (
    yamlValue(body, 'error') ??
    yamlValue(body, 'message') ??
    (expected !== undefined || actual !== undefined
      ? `expected: ${expected ?? '?'}\nactual: ${actual ?? '?'}`
      : '')
  );
}

/** One `not ok` line and the lines indented under it. */
function failure(
  lines: readonly string[],
  at: number,
  end: number,
  worktree: Worktree,
): TestFailure {
  const start = NOT_OK.exec(lines[at]!)!;
  const body = lines.slice(at + 1, end);
  const id = NOT_OK_ID.exec(lines[at]!)?.[1]?.trim();
  const name = start[2]!.replace(/\s+#\s*SKIP\b.*$/i, '').trim();
  const base = { at, name, level: 'failure' as const, ...(id ? { id } : {}) };
  if (/#\s*TODO\b/i.test(start[2]!)) return { ...base, kind: 'test' };
  if (/failureType:\s*'?subtestsFailed/.test(body.join('\n'))) return { ...base, kind: 'suite' };
  const yaml = body.some((l) => /^\s*---$/.test(l));
  const location = locationOf(body, yaml, worktree);
  const detail = detailOf(body, yaml);
  return {
    ...base,
    kind: 'test',
    message: detail ? `${name}\n${detail}` : name || 'not ok',
    ...(location ? { location } : {}),
  };
}

/** The `not ok` tests of a TAP stream, with their places and messages. */
export function tapFailures(lines: readonly string[], worktree: Worktree): TestFailure[] {
  const out: TestFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    const start = NOT_OK.exec(lines[i]!);
    if (!start) continue;
    const indent = start[1]!.length;
    const end = blockEnd(lines, i, (l) => l.trim() !== '' && indentOf(l) <= indent);
    out.push(failure(lines, i, end, worktree));
    i = end - 1;
  }
  // A `not ok` line inside another's block is still a failure named.
  return inOrder([...out, ...marks(lines, NOT_OK_ID, out)]);
}

export const tapCounts = (lines: readonly string[]): TestCounts =>
  readCounts(lines, /^#\s*fail\s+(\d+)/, /^#\s*pass\s+(\d+)/);
