/**
 * The folder rules the architecture depends on (docs/ARCHITECTURE.md's table), checked on the
 * source. Orchestration — `intake/` (triggers to runs), `runs/` (a run's record, ending and
 * status), `scheduler/` (queues, workers, the stage job), `pipeline/` (the stage table), `hosts/`
 * (the processes: the app, the CLI's local runner, the local modes) and `bin/` — sits above the
 * libraries and adapters, which import none of it. Within orchestration, each layer imports only
 * those below it: runs ← scheduler ← intake ← hosts, and the pipeline knows no queue.
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

/** The folders of `src/` a file imports from (relative imports only); `hosts/` by host. */
function importedFolders(file: string): string[] {
  const folders = new Set<string>();
  for (const target of importedPaths(file)) {
    const parts = relative(SRC, target).split('/');
    const top = parts[0] === 'hosts' ? `hosts/${parts[1]}` : parts[0]!;
    if (!top.startsWith('..') && parts.length > 1) folders.add(top);
  }
  return [...folders];
}

/** Every folder of `src/` but those named. */
function foldersBut(...kept: string[]): string[] {
  return readdirSync(SRC, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !kept.includes(e.name))
    .map((e) => e.name);
}

const inside = (root: string, path: string): boolean => !relative(root, path).startsWith('..');

const HOSTS = ['hosts/app', 'hosts/local', 'hosts/modes'];
const ORCHESTRATION = ['pipeline', 'intake', 'runs', 'scheduler', ...HOSTS, 'bin'];
const IO = ['github', 'git', 'exec', 'llm'];

const RULES: [string, string[]][] = [
  // A run's record, its ending and its status: below the queues that carry it.
  ['runs', ['pipeline', 'intake', 'scheduler', ...HOSTS, 'bin']],
  ['scheduler', ['pipeline', 'intake', ...HOSTS, 'bin']],
  ['intake', ['pipeline', ...HOSTS, 'bin']],
  // The stage table knows nothing of BullMQ: `hosts/app/stages/` adapts it to the queue.
  ['pipeline', ['intake', 'runs', 'scheduler', ...HOSTS, 'bin']],
  // The app's process, the CLI's runner and the local modes run beside each other, never through one another.
  ['hosts/app', ['hosts/local', 'hosts/modes', 'bin']],
  ['hosts/local', ['intake', 'runs', 'scheduler', 'hosts/app', 'hosts/modes', 'bin', 'github']],
  ['hosts/modes', ['intake', 'runs', 'scheduler', 'hosts/app', 'hosts/local', 'bin', 'github']],
  ['text', [...ORCHESTRATION, ...IO, 'test-output', 'verdict']],
  // Runner output read once, pure: nothing but text helpers.
  ['test-output', foldersBut('text', 'test-output')],
  // The verdict on a change: the stages and the check run use it, never the other way round.
  ['verdict', [...ORCHESTRATION, 'llm', 'git', 'github']],
  ['edits', [...ORCHESTRATION, 'github', 'llm']],
  ['llm', [...ORCHESTRATION, 'github', 'exec']],
  ['git', [...ORCHESTRATION, 'github', 'llm']],
  ['exec', [...ORCHESTRATION, 'github', 'llm']],
  ['context', ORCHESTRATION],
  ['artifacts', ORCHESTRATION],
  // The model's tools reach tests and edits only through the ports they are given.
  ['tools', [...ORCHESTRATION, 'github', 'exec']],
  // The loop drives the model and the tools; the stage decides what its ports do.
  ['agent-loop', [...ORCHESTRATION, 'github', 'exec']],
  // The one reader of a checkout: a leaf that knows nothing of what it reads for.
  ['repo-files', [...ORCHESTRATION, 'github', 'llm', 'context', 'edits', 'exec']],
  ['secrets', [...ORCHESTRATION, 'github', 'llm', 'exec']],
  // GitHub's calls and texts: the runs and the stages use them, never the other way round.
  ['github', ORCHESTRATION],
  // Settings read once: nothing that does I/O for a run.
  ['config', [...ORCHESTRATION, ...IO]],
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
    expect(importedFolders(join(SRC, 'intake/admit-trigger.ts'))).toContain('text');
    expect(importedFolders(join(SRC, 'hosts/app/stages/stage-processors.ts'))).toContain(
      'pipeline',
    );
  });

  it('forbids test-output/ every other folder (the rule lists real folders)', () => {
    const forbidden = RULES.find(([folder]) => folder === 'test-output')![1];
    expect(forbidden).toEqual(expect.arrayContaining(['github', 'exec', 'pipeline', 'verdict']));
    expect(forbidden).not.toContain('text');
  });

  it('covers every folder of src/ (a new folder gets a rule or a reason)', () => {
    const unruled = ['demo', 'bin', 'hosts'];
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !unruled.includes(e.name))
      .map((e) => e.name);
    const ruled = new Set(RULES.map(([f]) => f.split('/')[0]));
    expect(folders.filter((f) => !ruled.has(f))).toEqual([]);
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
