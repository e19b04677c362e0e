/**
 * Structure a maintainer follows without reading: names that are file or directory names
 * (`weekOfYear` → `src/plugin/weekOfYear/index.js`, `quarter_of_year` → `quarter-of-year.py`),
 * dotted module paths (`pkg.sub.mod` → `pkg/sub/mod.py`) and the import graph (relative
 * JavaScript/TypeScript imports, Python imports, Go package imports), one hop. Pure.
 */

export interface GraphFile {
  path: string;
  content: string;
}

/** `weekOfYear`, `week-of-year`, `week_of_year`, `WeekOfYear` → `weekofyear`. */
export const normaliseName = (name: string): string => name.toLowerCase().replace(/[-_.\s]/g, '');

const stemOf = (name: string): string => {
  const dot = name.indexOf('.', 1);
  return dot > 0 ? name.slice(0, dot) : name;
};

const INDEX_NAMES = new Set(['index', '__init__', 'mod', 'main', 'init']);

export interface NameMatch {
  path: string;
  /** `file`: the file's own name; `directory`: a folder on its path (share of the folder). */
  how: 'file' | 'directory';
  weight: number;
}

/**
 * Files whose name or folder is `name` (case, kebab, snake and camel insensitive). A folder
 * gives most to its entry file (`index.*`, `__init__.py`, a file named like the folder), the
 * rest shares what is left.
 */
export function filesNamed(paths: readonly string[], name: string): NameMatch[] {
  const key = normaliseName(name);
  if (key.length < 3) return [];
  const out: NameMatch[] = [];
  const inDir = new Map<string, string[]>();
  for (const path of paths) {
    const segments = path.split('/');
    const file = segments[segments.length - 1] ?? '';
    if (normaliseName(stemOf(file)) === key) {
      out.push({ path, how: 'file', weight: 1 });
      continue;
    }
    for (let i = segments.length - 2; i >= 0; i--)
      if (normaliseName(segments[i] ?? '') === key) {
        const dir = segments.slice(0, i + 1).join('/');
        inDir.set(dir, [...(inDir.get(dir) ?? []), path]);
        break;
      }
  }
  for (const [dir, files] of inDir) {
    const dirName = dir.slice(dir.lastIndexOf('/') + 1);
    for (const path of files) {
      const rest = path.slice(dir.length + 1);
      const file = stemOf(rest);
      const entry =
        !rest.includes('/') &&
        (INDEX_NAMES.has(file.toLowerCase()) || normaliseName(file) === normaliseName(dirName));
      out.push({
        path,
        how: 'directory',
        weight: entry ? 0.9 : 0.5 / Math.max(1, Math.sqrt(files.length)),
      });
    }
  }
  return out;
}

const SOURCE_EXT = /\.(py|pyi|js|jsx|mjs|cjs|ts|tsx|mts|cts|go|rb|rs|java|kt|php|ex|exs)$/;

/** Path without extension and without a trailing `/index` or `/__init__`. */
export function modulePath(path: string): string {
  return path.replace(SOURCE_EXT, '').replace(/\/(index|__init__)$/, '');
}

/**
 * Files a dotted name resolves to: the longest prefix that is a module path (`a.b.c.Cls` →
 * `a/b/c.py` or `src/a/b/c/__init__.py`), at least two parts.
 */
export function filesForDotted(paths: readonly string[], dotted: string): string[] {
  const parts = dotted.split('.');
  const modules = paths.filter((p) => SOURCE_EXT.test(p)).map((p) => [modulePath(p), p] as const);
  for (let k = parts.length; k >= 2; k--) {
    const suffix = parts.slice(0, k).join('/');
    const hits = modules
      .filter(([m]) => m === suffix || m.endsWith(`/${suffix}`))
      .map(([, p]) => p);
    if (hits.length > 0 && hits.length <= 3) return hits;
  }
  return [];
}

const JS_IMPORT =
  /(?:\bimport\s+(?:[\w*${}\s,]+\s+from\s+)?|\bexport\s+[\w*${}\s,]+\s+from\s+|\brequire\s*\(\s*|\bimport\s*\(\s*)['"](\.{1,2}\/[^'"]+|\.{1,2})['"]/g;
const PY_FROM = /^\s*from\s+(\.*[\w.]*)\s+import\s+([\w, ()*]+)/gm;
const PY_IMPORT = /^\s*import\s+([\w.]+)/gm;
const GO_IMPORT_BLOCK = /^import\s*\(([^)]*)\)/gm;
const GO_IMPORT_LINE = /^import\s+(?:\w+\s+)?"([^"]+)"/gm;

const dirOf = (p: string): string => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

function join(dir: string, rel: string): string {
  const out = dir ? dir.split('/') : [];
  for (const part of rel.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

/** Import edges: file → files it imports (resolved inside the repository only). */
export function importGraph(files: readonly GraphFile[]): Map<string, Set<string>> {
  const all = new Set(files.map((f) => f.path));
  const byModule = new Map<string, string[]>();
  const byDir = new Map<string, string[]>();
  const byLast = new Map<string, string[]>();
  for (const f of files) {
    if (!SOURCE_EXT.test(f.path)) continue;
    const m = modulePath(f.path);
    if (!byModule.has(m)) {
      const last = m.slice(m.lastIndexOf('/') + 1);
      byLast.set(last, [...(byLast.get(last) ?? []), m]);
    }
    byModule.set(m, [...(byModule.get(m) ?? []), f.path]);
    if (f.path.endsWith('.go') && !f.path.endsWith('_test.go')) {
      const d = dirOf(f.path);
      byDir.set(d, [...(byDir.get(d) ?? []), f.path]);
    }
  }
  const goModule = /^module\s+(\S+)/m.exec(
    files.find((f) => f.path === 'go.mod')?.content ?? '',
  )?.[1];
  const resolveJs = (from: string, spec: string): string | undefined => {
    const base = join(dirOf(from), spec);
    const noExt = base.replace(/\.[cm]?[jt]sx?$/, '');
    for (const candidate of [
      base,
      ...[noExt, `${noExt}/index`].flatMap((b) =>
        ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts', '.vue'].map((e) => b + e),
      ),
    ])
      if (all.has(candidate)) return candidate;
    return undefined;
  };
  const resolvePy = (from: string, mod: string): string[] => {
    let target = mod;
    if (mod.startsWith('.')) {
      const dots = /^\.+/.exec(mod)?.[0].length ?? 1;
      let dir = dirOf(from);
      for (let i = 1; i < dots; i++) dir = dirOf(dir);
      target = join(dir, mod.slice(dots).replace(/\./g, '/'));
    } else target = mod.replace(/\./g, '/');
    if (!target) return [];
    const exact = byModule.get(target);
    if (exact) return exact;
    // An absolute import from a `src/` layout or a nested package root.
    const last = target.slice(target.lastIndexOf('/') + 1);
    for (const m of byLast.get(last) ?? [])
      if (m.endsWith(`/${target}`)) return byModule.get(m) ?? [];
    return [];
  };
  const graph = new Map<string, Set<string>>();
  for (const f of files) {
    const edges = new Set<string>();
    if (/\.([cm]?[jt]sx?|vue|svelte)$/.test(f.path)) {
      for (const m of f.content.matchAll(JS_IMPORT)) {
        const r = resolveJs(f.path, m[1] ?? '');
        if (r) edges.add(r);
      }
    } else if (/\.pyi?$/.test(f.path)) {
      for (const m of f.content.matchAll(PY_FROM)) {
        const mod = m[1] ?? '';
        const found = resolvePy(f.path, mod);
        if (found.length > 0) found.forEach((p) => edges.add(p));
        for (const name of (m[2] ?? '').split(/[\s,()]+/).filter((n) => /^\w+$/.test(n)))
          resolvePy(f.path, mod.endsWith('.') ? `${mod}${name}` : `${mod}.${name}`).forEach((p) =>
            edges.add(p),
          );
      }
      for (const m of f.content.matchAll(PY_IMPORT))
        resolvePy(f.path, m[1] ?? '').forEach((p) => edges.add(p));
    } else if (f.path.endsWith('.go') && goModule) {
      const specs: string[] = [];
      for (const m of f.content.matchAll(GO_IMPORT_BLOCK))
        for (const s of (m[1] ?? '').matchAll(/"([^"]+)"/g)) specs.push(s[1] ?? '');
      for (const m of f.content.matchAll(GO_IMPORT_LINE)) specs.push(m[1] ?? '');
      for (const spec of specs)
        if (spec.startsWith(`${goModule}/`))
          for (const p of byDir.get(spec.slice(goModule.length + 1)) ?? []) edges.add(p);
    }
    edges.delete(f.path);
    if (edges.size > 0) graph.set(f.path, edges);
  }
  return graph;
}
