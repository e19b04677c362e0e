/** The project's own package, which every issue names: no evidence of where to look. */
import type { PathKind } from '../classify-path.js';

/**
 * Folders that hold at least 40 % of the source files, at the top or under `src/`/`lib/`: the
 * project's own package (`astroid/`, `src/sqlfluff/`), which every issue names.
 */
export function projectPackages(entries: readonly { path: string; kind: PathKind }[]): Set<string> {
  const sources = entries.filter((e) => e.kind === 'source');
  const counts = new Map<string, number>();
  for (const e of sources) {
    const segments = e.path.split('/');
    for (let i = 1; i < Math.min(segments.length, 3); i++) {
      const dir = segments.slice(0, i).join('/');
      counts.set(dir, (counts.get(dir) ?? 0) + 1);
    }
  }
  const out = new Set<string>();
  if (sources.length < 20) return out;
  for (const [dir, count] of counts)
    if (count >= 0.4 * sources.length && (!dir.includes('/') || /^(src|lib)\/[^/]+$/.test(dir)))
      out.add(dir);
  // A Python project's importable package (`fastapi/`, `localstack-core/localstack/`): the
  // largest package whose parent is none, when it holds a quarter of the source, even where
  // documentation examples or a front end hold more files.
  const inits = new Set(entries.filter((e) => e.path.endsWith('/__init__.py')).map((e) => e.path));
  const isPackage = (dir: string): boolean => inits.has(`${dir}/__init__.py`);
  let largest: [string, number] | undefined;
  for (const [dir, count] of counts) {
    const parent = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : undefined;
    if (!isPackage(dir) || (parent !== undefined && isPackage(parent))) continue;
    if (!largest || count > largest[1]) largest = [dir, count];
  }
  if (largest && largest[1] >= 0.25 * sources.length) out.add(largest[0]);
  return out;
}
