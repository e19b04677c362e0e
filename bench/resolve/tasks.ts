/**
 * A task of `bench:resolve`: a real issue, the repository at the commit its upstream fix started
 * from, how to install its dependencies and run its tests, the tests that decide it
 * (`fail_to_pass`, `pass_to_pass`, named as Multi-SWE-bench names them: `file` for a whole test
 * file, `file:test name` for one test), the upstream `test_patch` applied before judging, and
 * the upstream `fix_patch` (only the replay model reads it).
 */
import { readFileSync } from 'node:fs';

export interface ResolveTask {
  /** `<owner>__<name>-<pull request>`, as Multi-SWE-bench names instances. */
  id: string;
  /** `owner/name`. */
  repo: string;
  /** The issue number the run uses (the first resolved issue). */
  number: number;
  /** The fix's base commit. */
  base: string;
  issue: { title: string; body: string };
  /** Run by the harness in a checkout of the base, outside the pipeline, before judging. */
  install: string[];
  /** `setup` and `validate` of the task's `.github/autofix.yml`; omitted: none. */
  setup?: string[];
  validate?: string[];
  /** Run by the judge after `test_patch` (jest `--verbose` output is parsed). */
  test: string[];
  fail_to_pass: string[];
  pass_to_pass: string[];
  test_patch: string;
  fix_patch: string;
}

/** The tasks of a JSONL file, filtered by `only` (a substring of the id) and cut to `limit`. */
export function loadTasks(file: string, only?: string, limit?: number): ResolveTask[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the tasks file ${file}: ${(err as Error).message}`);
  }
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as ResolveTask)
    .filter((t) => !only || t.id.includes(only))
    .slice(0, limit);
}

/** The test files a list of test names points at (`file` or `file:test name`), deduplicated. */
export function testFilesOf(names: string[]): string[] {
  return [...new Set(names.map((n) => n.split(':')[0] ?? n))];
}
