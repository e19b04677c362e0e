/**
 * `go test`'s output (pure): `--- FAIL: TestX (0.00s)` (nested, indented, for subtests) with the
 * test's log lines indented below it (`    math_test.go:12: got 5, want 4`; with `-v` they come
 * before it, after `=== RUN   TestX`), a panic's goroutine stack, `FAIL	example.com/m	0.01s`
 * per package, and the compiler's `./math.go:12:5: undefined: x` under `# example.com/m`
 * (`FAIL	example.com/m [build failed]`). A test's log lines name the file alone, not its
 * package's folder, so they stay in the message; a test that panicked is placed at its stack's
 * first frame in the repository, a compile error at its path (relative to where go ran).
 */
import type { Worktree } from '../text/repo-relative-path.js';
import { blockEnd, dedent, indentOf, inOrder, marks, place } from './output-blocks.js';
import type { LoadError, Place, RunnerReader, TestFailure } from './test-report.js';

const FAIL = /^(\s*)--- FAIL:\s+(\S+)/;
const PACKAGE = /^\s*FAIL\t(\S.*)$/;
const RESULT = /^\s*(?:---|===) /;
const GOROUTINE_FRAME = /^\s+(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?$/;
const COMPILE = /^(\S+\.go):(\d+):(\d+): (.*)$/;

/** With `-v`, a test's log lines come between `=== RUN   name` and its result. */
function loggedBefore(lines: readonly string[], at: number, name: string): string[] {
  for (let j = at - 1; j >= 0 && at - j < 400; j--) {
    if (lines[j] !== `=== RUN   ${name}`) continue;
    const logged: string[] = [];
    for (let k = j + 1; k < at && !RESULT.test(lines[k]!); k++) logged.push(lines[k]!);
    return logged;
  }
  return [];
}

/** A panic after the result: its first line, and the first frame of its stack that is ours. */
function panicOf(lines: readonly string[], from: number, worktree: Worktree) {
  if (!/^panic: /.test(lines[from] ?? '')) return undefined;
  const end = blockEnd(lines, from, (l) => RESULT.test(l) || /^(?:FAIL|ok)\s/.test(l));
  const location = lines
    .slice(from, end)
    .map((l) => GOROUTINE_FRAME.exec(l))
    .map((m) => (m ? place(m[1]!, m[2]!, worktree) : undefined))
    .find((p): p is Place => p !== undefined);
  return { message: lines[from]!, location };
}

function failure(lines: readonly string[], at: number, worktree: Worktree): TestFailure {
  const [, indent, name] = FAIL.exec(lines[at]!)!;
  const end = blockEnd(
    lines,
    at,
    (l) => l.trim() !== '' && (indentOf(l) <= indent!.length || RESULT.test(l)),
  );
  const below = lines.slice(at + 1, end);
  const logged = below.some((l) => l.trim() !== '') ? below : loggedBefore(lines, at, name!);
  const panic = panicOf(lines, end, worktree);
  const message = dedent(logged) || panic?.message || name!;
  return {
    at,
    kind: 'test',
    id: name!,
    name: name!,
    message,
    level: 'failure',
    ...(panic?.location ? { location: panic.location } : {}),
  };
}

/** The compiler's errors, under a `# package` line. */
function compileErrors(lines: readonly string[], worktree: Worktree): LoadError[] {
  const out: LoadError[] = [];
  let inBuild = false;
  lines.forEach((line, at) => {
    if (/^# \S/.test(line)) {
      inBuild = true;
      return;
    }
    const m = inBuild ? COMPILE.exec(line) : null;
    // Indented lines continue an error; anything else ends the compiler's list.
    if (!m) {
      if (!/^\s/.test(line)) inBuild = false;
      return;
    }
    const location = place(m[1]!, m[2]!, worktree);
    out.push({
      at,
      cause: 'compile',
      name: '',
      message: m[4]!,
      level: 'failure',
      ...(location ? { location } : {}),
    });
  });
  return out;
}

export const goTest: RunnerReader = {
  runner: 'go',
  signs:
    /^[ \t]*--- FAIL:[ \t]|^=== RUN[ \t]|^[ \t]*FAIL\t|^ok[ \t]+\S+[ \t]+(?:[\d.]+s|\(cached\))|\[build failed\]/,
  command: /\bgo\s+test\b/,
  read: (lines, { worktree }) => {
    const tests: TestFailure[] = [];
    lines.forEach((line, at) => {
      if (FAIL.test(line)) tests.push(failure(lines, at, worktree));
    });
    const packages = marks(lines, PACKAGE, [], 'suite').map((f) => ({
      ...f,
      name: f.id!.split(/\s/)[0]!,
    }));
    return {
      runner: 'go',
      failures: inOrder([...tests, ...packages]),
      errors: compileErrors(lines, worktree),
      counts: {},
    };
  },
};
