/**
 * What a failing command says failed, as a set of names (pure): the failing tests, suites and
 * compiler errors that common runners print, so a run can tell a failure that already exists on
 * the base commit from one the change made. `null` when the output names nothing it recognises
 * (then only the exit code can be compared).
 *
 * Recognised: Jest/Vitest (`FAIL file`, `● Suite › test`, `× test`), Mocha (`1) Suite test`
 * in the failure list), node:test and TAP (`not ok N - name`, `✖ name`), pytest (`FAILED
 * path::test`, `ERROR path`), Go (`--- FAIL: TestX`), tsc (`file(l,c): error TSnnnn`), and
 * ESLint's per-file blocks are not (they change with every line edited).
 */

const PATTERNS: readonly RegExp[] = [
  // Jest / Vitest suite and test lines.
  /^\s*FAIL\s+(\S.*)$/,
  /^\s*●\s+(?!Console\b)(\S.*)$/,
  /^\s*[×✕]\s+(\S.*)$/,
  // node:test spec reporter and TAP.
  /^\s*✖\s+(\S.*)$/,
  /^\s*not ok \d+\s*-?\s*(\S.*)$/,
  // Mocha's numbered failures (in the spec listing and in the failure list).
  /^\s*\d+\)\s+(\S.*)$/,
  // pytest's short summary.
  /^(?:FAILED|ERROR)\s+(\S+)/,
  // Go.
  /^\s*--- FAIL:\s+(\S+)/,
];

/** `src/a.ts(10,5): error TS2322: …` and `src/a.ts:10:5 - error TS2322: …` → `src/a.ts TS2322`. */
const TSC = /^(\S.*?)(?:\(\d+,\d+\)|:\d+:\d+)\s*[:-]\s*error\s+(TS\d+)/;

/** Durations, counters and the like that differ between two runs of the same failure. */
function normalise(name: string): string {
  return name
    .replace(/\s*\(\d+(?:\.\d+)?\s*m?s\)\s*$/, '')
    .replace(/\s+\d+(?:\.\d+)?\s*m?s\s*$/, '')
    .replace(/\s*#\s*(?:SKIP|TODO)\b.*$/i, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function failureNames(output: string): Set<string> | null {
  const names = new Set<string>();
  for (const line of output.split(/\r?\n/)) {
    if (line.length > 500) continue;
    const tsc = TSC.exec(line);
    if (tsc) {
      names.add(`${tsc[1]} ${tsc[2]}`);
      continue;
    }
    for (const pattern of PATTERNS) {
      const m = pattern.exec(line);
      if (m?.[1]) {
        const name = normalise(m[1]);
        if (name) names.add(name);
        break;
      }
    }
  }
  return names.size > 0 ? names : null;
}

/** Summary lines that count failures: Jest/Vitest, Mocha, TAP/node:test, pytest, ESLint, tsc. */
const COUNTS: readonly RegExp[] = [
  /^\s*Tests?:?\s+(\d+) failed/m,
  /^\s*(\d+) failing\b/m,
  /^#\s*fail\s+(\d+)/m,
  /^ℹ fail (\d+)/m,
  /=+ (?:.*?\b)?(\d+) failed\b/m,
  // ESLint and tsc count problems, not tests: more of them is a change's doing too.
  /^✖ (\d+) problems?\b/m,
  /^Found (\d+) errors?\b/m,
];

/**
 * How many tests the output says failed (the largest count a summary line gives), or null: a
 * change that adds a failure under a name already failing (Mocha lists a failing test under its
 * suite's name) still raises the count.
 */
export function failureCount(output: string): number | null {
  let count: number | null = null;
  for (const pattern of COUNTS) {
    const m = pattern.exec(output);
    if (m?.[1]) count = Math.max(count ?? 0, Number(m[1]));
  }
  return count;
}

const NETWORK =
  /\b(?:EAI_AGAIN|ENOTFOUND|ECONNREFUSED|ENETUNREACH|EHOSTUNREACH|ECONNRESET|ETIMEDOUT|getaddrinfo|Could not resolve host|Temporary failure in name resolution|Network is unreachable|socket hang up|fetch failed)\b/i;

/** Whether the output looks like a command that needed the network (validate has none). */
export function looksLikeNetworkFailure(output: string): boolean {
  return NETWORK.test(output);
}
