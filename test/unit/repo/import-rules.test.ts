/**
 * The folder rules the architecture depends on, checked on the source: intake (`webhooks/`) and
 * the queue (`queue/`) import nothing from `pipeline/` or `worker/`; the pipeline (the stage
 * table and its in-process runner) nothing from the queue, its adapter (`worker/`) or the
 * servers; the leaf folders (`text/`, `edits/`, `llm/`, `git/`, `exec/`, `context/`,
 * `artifacts/`, `secrets/`) import no orchestration; `test-output/` imports nothing but `text/`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const SRC = resolve('src');
const FAKES = resolve('fakes');

function sources(dir: string, root = SRC): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/** The files a file imports from (relative imports only), as absolute paths. */
function importedPaths(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)[^'"]*?from\s+'(\.{1,2}\/[^']+)'/gm)].map((m) =>
    resolve(join(file, '..'), m[1]!),
  );
}

/** The top-level folders of `src/` a file imports from (relative imports only). */
function importedFolders(file: string): string[] {
  const folders = new Set<string>();
  for (const target of importedPaths(file)) {
    const top = relative(SRC, target).split('/')[0]!;
    if (!top.startsWith('..')) folders.add(top);
  }
  return [...folders];
}

const inside = (root: string, path: string): boolean => !relative(root, path).startsWith('..');

/** Every folder of `src/` but those named. */
function foldersBut(...kept: string[]): string[] {
  return readdirSync(SRC, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !kept.includes(e.name))
    .map((e) => e.name);
}

const RULES: [string, string[]][] = [
  ['webhooks', ['pipeline', 'worker', 'server', 'bin']],
  ['queue', ['pipeline', 'worker', 'server', 'bin', 'webhooks']],
  // The stage table knows nothing of BullMQ: `worker/` adapts it to the queue.
  ['pipeline', ['queue', 'worker', 'webhooks', 'server', 'bin']],
  ['text', ['pipeline', 'queue', 'webhooks', 'server', 'bin', 'github', 'git', 'exec', 'llm']],
  ['edits', ['pipeline', 'queue', 'webhooks', 'server', 'bin', 'github', 'llm']],
  ['llm', ['pipeline', 'queue', 'webhooks', 'server', 'bin', 'github', 'exec']],
  ['git', ['pipeline', 'queue', 'webhooks', 'server', 'bin', 'github', 'llm']],
  ['exec', ['pipeline', 'queue', 'webhooks', 'server', 'bin', 'github', 'llm']],
  ['context', ['pipeline', 'queue', 'webhooks', 'server', 'bin']],
  ['artifacts', ['pipeline', 'queue', 'webhooks', 'server', 'bin']],
  // The model's tools reach tests and edits only through the ports they are given.
  ['tools', ['pipeline', 'queue', 'webhooks', 'server', 'bin', 'github', 'exec', 'worker']],
  // The loop drives the model and the tools; the stage decides what its ports do.
  ['agent-loop', ['pipeline', 'queue', 'webhooks', 'server', 'bin', 'github', 'exec', 'worker']],
  // The one reader of a checkout: a leaf that knows nothing of what it reads for.
  [
    'repo-files',
    ['pipeline', 'queue', 'webhooks', 'server', 'bin', 'github', 'llm', 'context', 'edits', 'exec'],
  ],
  ['secrets', ['pipeline', 'queue', 'webhooks', 'server', 'bin', 'github', 'llm', 'exec']],
  // GitHub's calls and texts: the queue and the stages use them, never the other way round.
  ['github', ['pipeline', 'queue', 'webhooks', 'server', 'bin', 'worker']],
  // Settings read once: nothing that does I/O for a run.
  [
    'config',
    ['pipeline', 'queue', 'webhooks', 'server', 'bin', 'github', 'llm', 'exec', 'git', 'worker'],
  ],
  // The local modes (code-commit, work-order) run beside the app, never through it.
  ['modes', ['queue', 'webhooks', 'server', 'bin', 'worker', 'github']],
  // Runner output read once: pure text in, reports out.
  ['test-output', foldersBut('text', 'test-output')],
  // The verdict on a change: the stages and the check run use it, never the other way round.
  ['verdict', ['pipeline', 'queue', 'webhooks', 'server', 'bin', 'worker', 'llm', 'git']],
];

describe('import rules between folders', () => {
  it.each(RULES)('%s/ imports nothing from %j', (folder, forbidden) => {
    const offenders = sources(folder).flatMap((file) =>
      importedFolders(file)
        .filter((top) => forbidden.includes(top))
        .map((top) => `${relative(SRC, file)} → ${top}/`),
    );
    expect(offenders).toEqual([]);
  });

  it('reads imports as the compiler does (the check itself sees a known import)', () => {
    expect(importedFolders(join(SRC, 'webhooks/admit-trigger.ts'))).toContain('text');
  });

  it('forbids test-output/ every other folder (the rule lists real folders)', () => {
    const forbidden = RULES.find(([folder]) => folder === 'test-output')![1];
    expect(forbidden).toEqual(expect.arrayContaining(['github', 'exec', 'pipeline', 'verdict']));
    expect(forbidden).not.toContain('text');
  });
});

// The fakes (fake GitHub, scripted model) are test tools that `autofix demo` runs too: the
// product reaches them only from `demo/`, and they stand on what the real services document,
// never on the product's own code.
describe('the fakes in fakes/', () => {
  it('are imported in src/ only by demo/', () => {
    const offenders = sources('')
      .filter((file) => !inside(join(SRC, 'demo'), file))
      .filter((file) => importedPaths(file).some((target) => inside(FAKES, target)))
      .map((file) => relative(SRC, file));
    expect(offenders).toEqual([]);
    // The check sees the demo's import of the fake GitHub.
    const demo = importedPaths(join(SRC, 'demo/start-demo-app.ts'));
    expect(demo.some((target) => inside(FAKES, target))).toBe(true);
  });

  it('import nothing from src/', () => {
    const offenders = sources('', FAKES)
      .filter((file) => importedPaths(file).some((target) => inside(SRC, target)))
      .map((file) => relative(FAKES, file));
    expect(offenders).toEqual([]);
  });
});
