/**
 * The runtime versions a repository asks for (`.nvmrc`, `.node-version`, `package.json`
 * `engines.node`, `.tool-versions`, `.python-version`) against what its commands ran on: honoured
 * or said (issue #38). Pure; a small range check (no dependency): `18`, `18.x`, `3.12.1`, `^18`,
 * `~3.11`, `>=18 <21`, `||`. A request it cannot read (`lts/*`, `system`) is not checked.
 */
import { toolVersions } from './tool-versions.js';

export type Runtime = 'node' | 'python';

export interface RequestedRuntime {
  runtime: Runtime;
  range: string;
  /** The file that asks (`.nvmrc`, `package.json engines.node`). */
  source: string;
}

export const VERSION_FILES = [
  '.nvmrc',
  '.node-version',
  'package.json',
  '.tool-versions',
  '.python-version',
] as const;

const NAMES: Record<Runtime, string> = { node: 'Node', python: 'Python' };

function firstLine(text: string): string | undefined {
  return text
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .find((l) => l !== '');
}

function fromToolVersions(text: string): RequestedRuntime[] {
  const found: RequestedRuntime[] = [];
  for (const [tool, version] of toolVersions(text)) {
    const runtime =
      tool === 'nodejs' || tool === 'node' ? 'node' : tool === 'python' ? 'python' : undefined;
    if (runtime) found.push({ runtime, range: version, source: '.tool-versions' });
  }
  return found;
}

function fromPackageJson(text: string): RequestedRuntime[] {
  try {
    const engines = (JSON.parse(text) as { engines?: { node?: unknown } } | null)?.engines;
    return typeof engines?.node === 'string'
      ? [{ runtime: 'node', range: engines.node, source: 'package.json engines.node' }]
      : [];
  } catch {
    return [];
  }
}

/** From the files' texts by name (absent files left out). */
export function requestedVersions(files: Partial<Record<string, string>>): RequestedRuntime[] {
  const found: RequestedRuntime[] = [];
  for (const [source, runtime] of [
    ['.nvmrc', 'node'],
    ['.node-version', 'node'],
    ['.python-version', 'python'],
  ] as const) {
    const line = files[source] === undefined ? undefined : firstLine(files[source]);
    if (line) found.push({ runtime, range: line.replace(/^v(?=\d)/, ''), source });
  }
  if (files['package.json'] !== undefined) found.push(...fromPackageJson(files['package.json']));
  if (files['.tool-versions'] !== undefined)
    found.push(...fromToolVersions(files['.tool-versions']));
  return found;
}

type Triple = [number, number, number];

function parts(version: string): (number | undefined)[] | undefined {
  const m = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:[-+][\w.-]*)?$/.exec(version);
  if (!m) return undefined;
  return [m[1], m[2], m[3]].map((p) =>
    p === undefined || /[xX*]/.test(p) ? undefined : Number(p),
  );
}

function compare(a: Triple, b: Triple): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

function bump(low: Triple, index: number): Triple {
  return [0, 1, 2].map((i) => (i < index ? low[i] : i === index ? low[i]! + 1 : 0)) as Triple;
}

/** One comparator (`>=18`, `^3.11`, `18.x`) against a version; undefined when unreadable. */
function satisfiesOne(comparator: string, actual: Triple): boolean | undefined {
  const m = /^(>=|<=|>|<|=|\^|~)?(.+)$/.exec(comparator);
  const wanted = m ? parts(m[2]!) : undefined;
  if (!m || !wanted) return undefined;
  const missing = wanted.findIndex((p) => p === undefined);
  const given = missing === -1 ? 3 : missing;
  const low = [0, 1, 2].map((i) => (i < given ? wanted[i]! : 0)) as Triple;
  // The first version past the prefix given (`18` → 19.0.0, `3.12` → 3.13.0).
  const next = given === 3 ? undefined : bump(low, Math.max(0, given - 1));
  const atLeast = compare(actual, low) >= 0;
  const below = (high: Triple): boolean => compare(actual, high) < 0;
  switch (m[1] ?? '=') {
    case '>=':
      return atLeast;
    case '<':
      return !atLeast;
    case '>':
      return next ? !below(next) : compare(actual, low) > 0;
    case '<=':
      return next ? below(next) : compare(actual, low) <= 0;
    case '^': {
      const first = low.findIndex((p, i) => p !== 0 && i < given);
      return atLeast && below(bump(low, first === -1 ? Math.max(0, given - 1) : first));
    }
    case '~':
      return atLeast && below(bump(low, given >= 2 ? 1 : 0));
    default:
      return atLeast && (next ? below(next) : compare(actual, low) === 0);
  }
}

/** Whether `actual` satisfies `range`; undefined when the range is not one this reads. */
export function satisfies(range: string, actual: string): boolean | undefined {
  const version = parts(actual.trim());
  if (!version || version.some((p) => p === undefined)) return undefined;
  const triple = version as Triple;
  let any: boolean | undefined = false;
  for (const alternative of range.split('||')) {
    const comparators = alternative
      .trim()
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1')
      .split(/\s+/);
    let all: boolean | undefined = true;
    for (const c of comparators) {
      const one = satisfiesOne(c, triple);
      if (one === undefined) return undefined;
      all = all && one;
    }
    any = any || all;
  }
  return any;
}

/** One line per request the run did not honour: "The repository asks for Node 18 (.nvmrc); …". */
export function versionWarnings(
  requested: readonly RequestedRuntime[],
  actual: Partial<Record<Runtime, string>>,
): string[] {
  const warnings: string[] = [];
  for (const r of requested) {
    const ran = actual[r.runtime];
    if (ran === undefined || satisfies(r.range, ran) !== false) continue;
    const name = NAMES[r.runtime];
    warnings.push(
      `The repository asks for ${name} ${r.range} (${r.source}); commands ran on ${name} ${ran}.`,
    );
  }
  return warnings;
}
