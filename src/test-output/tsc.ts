/**
 * tsc's output (pure): `src/a.ts(12,5): error TS2322: …` (`--pretty false`) and the pretty
 * `src/a.ts:12:5 - error TS2322: …`, a message continued on the lines below it (indented
 * further), and `Found 2 errors in 2 files.`. Errors are compile errors (no test of that code can
 * run); warnings and messages are problems. A diagnostic with no file (`error TS5023: Unknown
 * compiler option`) is an error without a place.
 */
import type { Worktree } from '../text/repo-relative-path.js';
import {
  firstCount,
  indentOf,
  MAX_MESSAGE_LINES,
  dedent,
  inOrder,
  place,
} from './output-blocks.js';
import type { Finding, Level, LoadError, RunnerReader, TestFailure } from './test-report.js';

const TSC_PAREN = /^(\s*)(\S.*)\((\d+),(\d+)\): (error|warning|message) (TS\d+): (.*)$/;
const TSC_PRETTY = /^(\s*)(\S.*?):(\d+):(\d+) - (error|warning|message) (TS\d+): (.*)$/;
/** How a failure line names an error: its file and code (`src/a.ts TS2322`). */
const TSC_ID = /^(\S.*?)(?:\(\d+,\d+\)|:\d+:\d+)\s*[:-]\s*error\s+(TS\d+)/;
const COMPILE = /\berror TS(\d{4})\b/;
const FOUND = /^Found (\d+) errors?\b/;

const LEVEL: Record<string, Level> = { error: 'failure', warning: 'warning', message: 'notice' };

/** The lines below a diagnostic that continue its message ("  Type 'x' is not …"). */
function continuation(lines: readonly string[], at: number, indent: number): string[] {
  const more: string[] = [];
  for (let j = at + 1; j < lines.length && more.length < MAX_MESSAGE_LINES; j++) {
    const next = lines[j]!;
    if (next.trim() === '' || indentOf(next) <= indent) break;
    more.push(next);
  }
  return more;
}

function diagnostic(lines: readonly string[], at: number, worktree: Worktree): Finding | undefined {
  const line = lines[at]!;
  const idMatch = TSC_ID.exec(line);
  const id = idMatch ? `${idMatch[1]} ${idMatch[2]}` : undefined;
  const m = TSC_PAREN.exec(line) ?? TSC_PRETTY.exec(line);
  if (!m) {
    const code = COMPILE.exec(line)?.[1];
    if (!id && !code) return undefined;
    const name = idMatch?.[2] ?? `TS${code}`;
    return { at, name, message: line.trim(), level: 'failure', ...(id ? { id } : {}) };
  }
  const more = continuation(lines, at, m[1]!.length);
  const location = place(m[2]!, m[3]!, worktree);
  return {
    at,
    name: m[6]!,
    message: [m[7]!, ...(more.length > 0 ? [dedent(more)] : [])].join('\n'),
    level: LEVEL[m[5]!]!,
    ...(id ? { id } : {}),
    ...(location ? { location } : {}),
  };
}

export const tsc: RunnerReader = {
  runner: 'tsc',
  signs: /\b(?:error|warning|message)[ \t]+TS\d+|^Found \d+ errors?\b/,
  command: /\btsc\b/,
  read: (lines, { worktree }) => {
    const failures: TestFailure[] = [];
    const errors: LoadError[] = [];
    lines.forEach((_, at) => {
      const found = diagnostic(lines, at, worktree);
      if (!found) return;
      if (found.level === 'failure') errors.push({ ...found, cause: 'compile' });
      else failures.push({ ...found, kind: 'problem' });
    });
    const failed = firstCount(lines, FOUND);
    return {
      runner: 'tsc',
      failures: inOrder(failures),
      errors: inOrder(errors),
      counts: failed === undefined ? {} : { failed },
    };
  },
};
