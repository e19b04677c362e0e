/**
 * Structure a maintainer follows without reading: names that are file or directory names
 * (`weekOfYear` → `src/plugin/weekOfYear/index.js`, `quarter_of_year` → `quarter-of-year.py`),
 * dotted module paths (`pkg.sub.mod` → `pkg/sub/mod.py`) and the import graph (relative
 * JavaScript/TypeScript imports, Python imports, Go package imports), one hop. Pure.
 */
import { escapeRegExp } from './grep-code.js';
import { groupBy } from './group-by.js';

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
  /** The folder named, for `directory` matches. */
  dir?: string;
}

/**
 * Files whose name or folder is `name` (case, kebab, snake and camel insensitive). A folder
 * gives most to its entry file (`index.*`, `__init__.py`, a file named like the folder), the
 * rest shares what is left.
 */
export function filesNamed(paths: readonly string[], name: string): NameMatch[] {
  return createNameIndex(paths).filesNamed(name);
}

export interface NameIndex {
  /** `filesNamed(paths, name)`, from names normalised once for all of an issue's names. */
  filesNamed(name: string): NameMatch[];
}

export function createNameIndex(paths: readonly string[]): NameIndex {
  const segmentsOf = paths.map((path) => path.split('/'));
  const indices = paths.map((_, i) => i);
  // Normalised file stem → files; normalised folder name → (file, depth of that folder).
  const stems = groupBy(indices, (i) => {
    const segments = segmentsOf[i]!;
    return normaliseName(stemOf(segments[segments.length - 1] ?? ''));
  });
  const folders = groupBy(
    indices.flatMap((i) => segmentsOf[i]!.slice(0, -1).map((_, d) => [i, d] as const)),
    ([i, d]) => normaliseName(segmentsOf[i]![d]!),
  );
  return {
    filesNamed(name) {
      const key = normaliseName(name);
      if (key.length < 3) return [];
      const byFile = stems.get(key) ?? [];
      const out: NameMatch[] = byFile.map((i) => ({ path: paths[i]!, how: 'file', weight: 1 }));
      const named = new Set(byFile);
      // The deepest folder of that name on each other file's path, files in path order.
      const deepest = new Map<number, number>();
      for (const [i, d] of folders.get(key) ?? [])
        if (!named.has(i)) deepest.set(i, Math.max(d, deepest.get(i) ?? -1));
      const inDir = groupBy(deepest, ([i, d]) => segmentsOf[i]!.slice(0, d + 1).join('/'));
      for (const [dir, members] of inDir) {
        const files = members.map(([i]) => paths[i]!);
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
            dir,
          });
        }
      }
      return out;
    },
  };
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
/** `from .mod import a, b as c` and `from pkg.mod import (\n a,\n b,\n)`: module and names. */
const PY_FROM = /^[ \t]*from\s+(\.*[\w.]*)\s+import\s+(\([^)]*\)|[^\n#;]+)/gm;
/** `import a.b, c.d as e`. */
const PY_IMPORT = /^[ \t]*import\s+([\w.]+(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)/gm;

/** Names of a `from … import` list, as `[imported, bound]` pairs (`a as b` → `['a', 'b']`). */
function importedNames(list: string): [string, string][] {
  return list
    .replace(/[()\\]/g, ' ')
    .split(',')
    .map((item) => item.trim().split(/\s+as\s+/))
    .filter((parts) => parts[0] !== undefined && /^(\w+|\*)$/.test(parts[0]))
    .map((parts) => [parts[0] ?? '', parts[1] ?? parts[0] ?? '']);
}
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

/**
 * The name by which other files import `path`: its module's last segment (`lib/router/index.js`
 * → `router`), or for Go its package's folder. A file that does not hold it (nor a relative
 * import of a bare folder, `'..'`, `from . import`) cannot import `path`.
 */
function importName(path: string): string {
  if (path.endsWith('.go')) return dirOf(path).slice(dirOf(path).lastIndexOf('/') + 1);
  const m = modulePath(path);
  return m.slice(m.lastIndexOf('/') + 1);
}
/**
 * `'./'`, `".."`, `'./index.js'`, `from . import`: an import of the importer's own or parent
 * folder, which does not name it.
 */
const BARE_RELATIVE = /['"]\.{1,2}(?:\/|\/index(?:\.[cm]?[jt]sx?)?)?['"]|\bfrom\s+\.+\s+import\b/;
/** The same, as an `importSpecs` specifier. */
const BARE_SPEC = /^(?:[./]*|\.{1,2}\/index(?:\.[cm]?[jt]sx?)?)$/;

/**
 * Whether `file` may import one of the focus files: it holds one of their import names, or it
 * is in a focus file's folder or a folder just below it and imports a bare folder.
 */
function mayImport(
  file: GraphFile,
  names: RegExp | undefined,
  folders: ReadonlySet<string>,
): boolean {
  if (names?.test(file.content)) return true;
  const dir = dirOf(file.path);
  return (folders.has(dir) || folders.has(dirOf(dir))) && BARE_RELATIVE.test(file.content);
}

const JS_FILE = /\.([cm]?[jt]sx?|vue|svelte)$/;
const PY_FILE = /\.pyi?$/;

/**
 * What a file imports, as written, before resolution: relative JavaScript specifiers
 * (`./router`), Python modules (`.core`, `pkg.sub`, and `pkg.sub.name` for each name of a
 * `from pkg.sub import name`), Go import paths. Per file and pure: another thread can make
 * them while it reads (`importGraph`'s `specs`).
 */
export function importSpecs(path: string, content: string): string[] {
  const out: string[] = [];
  if (JS_FILE.test(path)) {
    for (const m of content.matchAll(JS_IMPORT)) out.push(m[1] ?? '');
  } else if (PY_FILE.test(path)) {
    for (const m of content.matchAll(PY_FROM)) {
      const mod = m[1] ?? '';
      out.push(mod);
      for (const [name] of importedNames(m[2] ?? ''))
        if (name !== '*') out.push(mod.endsWith('.') ? `${mod}${name}` : `${mod}.${name}`);
    }
    for (const m of content.matchAll(PY_IMPORT))
      for (const mod of (m[1] ?? '').split(',')) out.push(mod.trim().split(/\s+/)[0] ?? '');
  } else if (path.endsWith('.go')) {
    for (const m of content.matchAll(GO_IMPORT_BLOCK))
      for (const spec of (m[1] ?? '').matchAll(/"([^"]+)"/g)) out.push(spec[1] ?? '');
    for (const m of content.matchAll(GO_IMPORT_LINE)) out.push(m[1] ?? '');
  }
  return out;
}

/** The repository's source files indexed for resolving imports. */
interface SourceIndex {
  all: Set<string>;
  /** Module path (no extension) → its files. */
  byModule: Map<string, string[]>;
  /** Go package folder → its non-test files. */
  byDir: Map<string, string[]>;
  /** Last segment of a module path → the module paths ending in it. */
  byLast: Map<string, string[]>;
  /** The module path `go.mod` declares. */
  goModule: string | undefined;
}

function sourceIndex(files: readonly GraphFile[]): SourceIndex {
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
  return { all: new Set(files.map((f) => f.path)), byModule, byDir, byLast, goModule };
}

function resolveJs(index: SourceIndex, from: string, spec: string): string | undefined {
  const base = join(dirOf(from), spec);
  const noExt = base.replace(/\.[cm]?[jt]sx?$/, '');
  for (const candidate of [
    base,
    ...[noExt, `${noExt}/index`].flatMap((b) =>
      ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts', '.vue'].map((e) => b + e),
    ),
  ])
    if (index.all.has(candidate)) return candidate;
  return undefined;
}

function resolvePy(index: SourceIndex, from: string, mod: string): string[] {
  let target = mod;
  if (mod.startsWith('.')) {
    const dots = /^\.+/.exec(mod)?.[0].length ?? 1;
    let dir = dirOf(from);
    for (let i = 1; i < dots; i++) dir = dirOf(dir);
    target = join(dir, mod.slice(dots).replace(/\./g, '/'));
  } else target = mod.replace(/\./g, '/');
  if (!target) return [];
  const exact = index.byModule.get(target);
  if (exact) return exact;
  // An absolute import from a `src/` layout or a nested package root.
  const last = target.slice(target.lastIndexOf('/') + 1);
  for (const m of index.byLast.get(last) ?? [])
    if (m.endsWith(`/${target}`)) return index.byModule.get(m) ?? [];
  return [];
}

/** The repository files that `specs`, written in file `path`, import. */
function resolveSpecs(index: SourceIndex, path: string, specs: readonly string[]): Set<string> {
  const edges = new Set<string>();
  const { goModule } = index;
  if (JS_FILE.test(path)) {
    for (const spec of specs) {
      const r = resolveJs(index, path, spec);
      if (r) edges.add(r);
    }
  } else if (PY_FILE.test(path)) {
    for (const spec of specs) resolvePy(index, path, spec).forEach((p) => edges.add(p));
  } else if (path.endsWith('.go') && goModule) {
    for (const spec of specs)
      if (spec.startsWith(`${goModule}/`))
        for (const p of index.byDir.get(spec.slice(goModule.length + 1)) ?? []) edges.add(p);
  }
  return edges;
}

/**
 * Import edges: file → files it imports (resolved inside the repository only). With `focus`,
 * only the edges that touch those files: their imports, and the files that import them (only
 * files that name one of them are read). `specs` are `importSpecs` another thread already made,
 * by path: then no content is read.
 */
export function importGraph(
  files: readonly GraphFile[],
  focus?: readonly string[],
  specs?: ReadonlyMap<string, readonly string[]>,
): Map<string, Set<string>> {
  const index = sourceIndex(files);
  const graph = new Map<string, Set<string>>();
  const focused = focus ? new Set(focus) : undefined;
  const nameList = [...new Set((focus ?? []).map(importName))].filter((n) => n !== '');
  const names = nameList.length > 0 ? new RegExp(nameList.map(escapeRegExp).join('|')) : undefined;
  const folders = new Set((focus ?? []).map(dirOf));
  for (const f of files) {
    const other = focused !== undefined && !focused.has(f.path);
    const known = specs?.get(f.path);
    if (other && known === undefined && !mayImport(f, names, folders)) continue;
    let list = known ?? importSpecs(f.path, f.content);
    // Another file reaches a focus file only by a specifier that names it or a bare folder.
    if (other) list = list.filter((spec) => names?.test(spec) === true || BARE_SPEC.test(spec));
    const edges = resolveSpecs(index, f.path, list);
    edges.delete(f.path);
    if (other) for (const e of edges) if (!focused.has(e)) edges.delete(e);
    if (edges.size > 0) graph.set(f.path, edges);
  }
  return graph;
}

/** Python modules of a repository: dotted-path lookups and re-export following. */
export interface PythonModules {
  /** Module path (`pkg/sub/mod`, `pkg/sub` for a package) → its file. */
  files: Map<string, string>;
  content: Map<string, string>;
}

export function pythonModules(files: readonly GraphFile[]): PythonModules {
  const out: PythonModules = { files: new Map(), content: new Map() };
  for (const f of files) {
    if (!/\.pyi?$/.test(f.path)) continue;
    const m = modulePath(f.path);
    // `mod.py` wins over a stub `mod.pyi`.
    if (!out.files.has(m) || f.path.endsWith('.py')) out.files.set(m, f.path);
    out.content.set(f.path, f.content);
  }
  return out;
}

/**
 * The file of a dotted Python module (`pkg.sub.mod` → `pkg/sub/mod.py`, `src/pkg/sub/mod.py` or
 * `pkg/sub/mod/__init__.py`), when exactly one file is it.
 */
export function pythonModuleFile(modules: PythonModules, dotted: string): string | undefined {
  const want = dotted.replace(/\./g, '/');
  const exact = modules.files.get(want);
  if (exact) return exact;
  const hits: string[] = [];
  for (const [m, file] of modules.files) if (m.endsWith(`/${want}`)) hits.push(file);
  return hits.length === 1 ? hits[0] : undefined;
}

const pyDefinition = (name: string): RegExp =>
  new RegExp(
    `^[ \\t]*(?:async[ \\t]+)?(?:def|class)[ \\t]+${name}\\b|^${name}[ \\t]*(?::[^=\\n]+)?=(?!=)`,
    'm',
  );

export interface PythonDefinition {
  path: string;
  /** 1-based line of the definition, when the file defines it. */
  line?: number;
  /** Files passed through (`pkg/__init__.py` re-exporting `from .mod import Name`). */
  via: string[];
  /** The name is a submodule (`from pkg import mod`), not a definition. */
  module?: boolean;
}

/**
 * Where `name`, as seen from the module in `file`, is defined: in `file` itself (`def`, `class`,
 * module-level assignment), as its submodule (`pkg/name.py`), or where the module's own
 * `from .x import name` (or `import *`) re-export leads, up to three hops — the way a maintainer
 * follows `from pkg import Name` from the package's `__init__.py` to the file to open.
 */
export function pythonDefinition(
  modules: PythonModules,
  file: string,
  name: string,
  hops = 3,
  seen = new Set<string>(),
): PythonDefinition | undefined {
  if (seen.has(file) || !/^\w+$/.test(name)) return undefined;
  seen.add(file);
  const content = modules.content.get(file);
  if (content === undefined) return undefined;
  const def = pyDefinition(name).exec(content);
  if (def) return { path: file, line: content.slice(0, def.index).split('\n').length, via: [] };
  const own = modulePath(file);
  const sub = file.endsWith('__init__.py') || file.endsWith('__init__.pyi') ? own : undefined;
  const subFile = sub !== undefined ? modules.files.get(`${sub}/${name}`) : undefined;
  if (subFile) return { path: subFile, via: [], module: true };
  if (hops === 0) return undefined;
  const pkgDir = sub ?? (own.includes('/') ? own.slice(0, own.lastIndexOf('/')) : '');
  const resolve = (mod: string): string | undefined => {
    if (!mod.startsWith('.')) return pythonModuleFile(modules, mod);
    const dots = /^\.+/.exec(mod)?.[0].length ?? 1;
    let dir = pkgDir;
    for (let i = 1; i < dots; i++)
      dir = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
    const rest = mod.slice(dots).replace(/\./g, '/');
    return modules.files.get([dir, rest].filter((p) => p !== '').join('/'));
  };
  const stars: string[] = [];
  for (const m of content.matchAll(PY_FROM)) {
    const names = importedNames(m[2] ?? '');
    const target = resolve(m[1] ?? '');
    for (const [imported, bound] of names) {
      if (imported === '*') {
        if (target) stars.push(target);
        continue;
      }
      if (bound !== name) continue;
      // `from . import name` / `from .pkg import name`: a submodule, or a name of the module.
      const asModule = resolve(`${m[1] ?? ''}${(m[1] ?? '').endsWith('.') ? '' : '.'}${imported}`);
      if (asModule && asModule !== file) return { path: asModule, via: [file], module: true };
      if (!target || target === file) continue;
      const found = pythonDefinition(modules, target, imported, hops - 1, seen);
      if (found) return { ...found, via: [file, ...found.via] };
    }
  }
  for (const target of stars) {
    const found = pythonDefinition(modules, target, name, hops - 1, seen);
    if (found) return { ...found, via: [file, ...found.via] };
  }
  return undefined;
}
