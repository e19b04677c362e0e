/**
 * `importGraph(files, focus)` reads only the files that can import the focus files (issue #18:
 * `autofix context` in under a second): it must hold exactly the full graph's edges that touch
 * them, whichever way a file imports (relative, bare folder, Python package, Go package).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { importGraph, importSpecs } from '../../../src/context/code-graph.js';

type File = { path: string; content: string };

/** The focused graph from specifiers made beforehand, with every content but go.mod's gone. */
function fromSpecs(files: File[], focus: readonly string[]): Map<string, Set<string>> {
  const specs = new Map(files.map((f) => [f.path, importSpecs(f.path, f.content)]));
  const blank = files.map((f) => (f.path === 'go.mod' ? f : { ...f, content: '' }));
  return importGraph(blank, focus, specs);
}

function touching(graph: Map<string, Set<string>>, focus: readonly string[]): string[] {
  const wanted = new Set(focus);
  const edges: string[] = [];
  for (const [from, tos] of graph)
    for (const to of tos) if (wanted.has(from) || wanted.has(to)) edges.push(`${from} -> ${to}`);
  return edges.sort();
}

async function sourceTree(root: string): Promise<File[]> {
  const out: File[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name.endsWith('.ts'))
        out.push({ path: relative(root, full), content: await readFile(full, 'utf8') });
    }
  };
  await walk(join(root, 'src'));
  return out;
}

const fixtures: File[] = [
  { path: 'lib/index.js', content: "module.exports = require('./router')\n" },
  { path: 'lib/router/index.js', content: "const layer = require('./layer')\n" },
  { path: 'lib/router/layer.js', content: "const r = require('..')\nconst s = require('./')\n" },
  { path: 'lib/router/route/route.js', content: "const router = require('..')\n" },
  { path: 'lib/router/sibling.js', content: "const router = require('./index')\n" },
  { path: 'lib/router/route/deep.js', content: "import r from '../index.js'\n" },
  { path: 'lib/app.mjs', content: "import router from './router/index.js'\n" },
  { path: 'pkg/__init__.py', content: 'from .core import Dataset\n' },
  { path: 'pkg/core.py', content: 'from . import *\n' },
  { path: 'pkg/sub/__init__.py', content: '' },
  { path: 'pkg/sub/leaf.py', content: 'from .. import core\nfrom ..core import Dataset\n' },
  { path: 'pkg/sub/other.py', content: 'import pkg.sub.leaf\n' },
  { path: 'go.mod', content: 'module example.com/app\n' },
  { path: 'cmd/main.go', content: 'package main\n\nimport (\n\t"example.com/app/srv"\n)\n' },
  { path: 'srv/srv.go', content: 'package srv\n' },
  { path: 'srv/util.go', content: 'package srv\n' },
];

describe('importGraph with a focus', () => {
  it('holds the full graph edges that touch the focus, for bare-folder, Python and Go imports', () => {
    const full = importGraph(fixtures);
    expect(full.size).toBeGreaterThan(6);
    for (const f of fixtures) {
      const focus = [f.path];
      expect(touching(importGraph(fixtures, focus), focus)).toEqual(touching(full, focus));
      expect(touching(fromSpecs(fixtures, focus), focus)).toEqual(touching(full, focus));
    }
    const focus = ['lib/router/index.js', 'pkg/__init__.py', 'srv/srv.go'];
    expect(touching(importGraph(fixtures, focus), focus)).toEqual(touching(full, focus));
    // The bare-folder imports are among them: `require('..')`, `from . import *`, `from .. import`.
    expect(touching(full, focus)).toEqual(
      expect.arrayContaining([
        'lib/router/route/route.js -> lib/router/index.js',
        'lib/router/sibling.js -> lib/router/index.js',
        'lib/router/route/deep.js -> lib/router/index.js',
        'pkg/core.py -> pkg/__init__.py',
        'pkg/sub/leaf.py -> pkg/__init__.py',
      ]),
    );
  });

  it('holds them on this repository own source, and no other edges', async () => {
    const files = await sourceTree(process.cwd());
    expect(files.length).toBeGreaterThan(100);
    const full = importGraph(files);
    const picks = files.filter((_, i) => i % 17 === 0).map((f) => f.path);
    for (let i = 0; i < picks.length; i += 5) {
      const focus = picks.slice(i, i + 5);
      const focused = importGraph(files, focus);
      expect(touching(focused, focus)).toEqual(touching(full, focus));
      expect(touching(fromSpecs(files, focus), focus)).toEqual(touching(full, focus));
      // Nothing else: the edges between two other files are not looked for.
      expect(touching(focused, [...focused.keys()]).length).toBe(touching(focused, focus).length);
    }
  });
});
