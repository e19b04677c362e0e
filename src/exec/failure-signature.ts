/**
 * What a failing command says failed, as a set of names (pure), folded from what `test-output/`
 * read in its output: the failing tests, suites and compiler errors as the runner's failure lines
 * name them (a finding's `id`), so a run can tell a failure that already exists on the base
 * commit from one the change made. `null` when the output names nothing (then only the exit code
 * can be compared). ESLint's problems are not names (they move with every line edited): their
 * count is.
 */
import { readTestOutput } from '../test-output/read-test-output.js';
import type { TestReport } from '../test-output/test-report.js';

/** Durations, counters and the like that differ between two runs of the same failure. */
function normalise(name: string): string {
  return name
    .replace(/\s*\(\d+(?:\.\d+)?\s*m?s\)\s*$/, '')
    .replace(/\s+\d+(?:\.\d+)?\s*m?s\s*$/, '')
    .replace(/\s*#\s*(?:SKIP|TODO)\b.*$/i, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function names(reports: readonly TestReport[]): Set<string> {
  const out = new Set<string>();
  for (const report of reports) {
    for (const finding of [...report.failures, ...report.errors]) {
      const name = finding.id === undefined ? '' : normalise(finding.id);
      if (name) out.add(name);
    }
  }
  return out;
}

export function failureNames(output: string): Set<string> | null {
  const found = names(readTestOutput(output));
  return found.size > 0 ? found : null;
}

/**
 * How many tests the output says failed (the largest count a summary line gives; for tsc and
 * ESLint, errors and problems: more of them is a change's doing too), or null: a change that adds
 * a failure under a name already failing (Mocha lists a failing test under its suite's name)
 * still raises the count.
 */
export function failureCount(output: string): number | null {
  const counts = readTestOutput(output).flatMap((r) =>
    r.counts.failed === undefined ? [] : [r.counts.failed],
  );
  return counts.length > 0 ? Math.max(...counts) : null;
}

const NETWORK =
  /\b(?:EAI_AGAIN|ENOTFOUND|ECONNREFUSED|ENETUNREACH|EHOSTUNREACH|ECONNRESET|ETIMEDOUT|getaddrinfo|Could not resolve host|Temporary failure in name resolution|Network is unreachable|socket hang up|fetch failed)\b/i;

/** Whether the output looks like a command that needed the network (validate has none). */
export function looksLikeNetworkFailure(output: string): boolean {
  return NETWORK.test(output);
}
