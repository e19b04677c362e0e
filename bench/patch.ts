/**
 * `npm run bench:patch`: how often each applier turns a damaged LLM-style diff into exactly the
 * intended files. A reproducible corpus (seeded PRNG over source files already on the machine)
 * of realistic edits; git's own diff is the gold; every damage class of issue 3 item 2 is applied;
 * ours and the anchors run in fresh temp repos. correct = byte-identical tree, wrong = claimed
 * success with a different tree, refused = reported failure.
 * Flags: --bases N (default 100), --seed N, --jobs N (concurrent edits, default 2),
 * --verbose (our refusals on stderr), --dump DIR (cases ours did not get right).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isAutofixError } from '../src/errors.js';
import { CLASSES, buildCases } from './patch/corpus.js';
import type { BenchCase, Scenario } from './patch/corpus.js';
import { createRng } from './patch/prng.js';
import { readTree, resetTree, writeTree } from './patch/repo.js';
import { findSources, loadSource } from './patch/sources.js';
import type { SourceFile } from './patch/sources.js';
import { gitApply, gitApplyLoose, gnuPatch, jsdiffFuzz, ours } from './patch/tools.js';
import type { Tool } from './patch/tools.js';

type Outcome = 'correct' | 'wrong' | 'refused';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const BASES = arg('bases', 100);
const SEED = arg('seed', 20240603);
const VERBOSE = process.argv.includes('--verbose');
const CONCURRENCY = arg('jobs', 2);
const DUMP = process.argv.includes('--dump')
  ? (process.argv[process.argv.indexOf('--dump') + 1] ?? '')
  : '';

function sameTree(tree: Map<string, string>, c: BenchCase): boolean {
  for (const [path, want] of c.intended) if (tree.get(path) !== want) return false;
  for (const path of tree.keys()) if (!c.intended.has(path)) return false;
  return true;
}

const timing = new Map<string, number>();
const time = async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
  const t = performance.now();
  try {
    return await fn();
  } finally {
    timing.set(key, (timing.get(key) ?? 0) + performance.now() - t);
  }
};

/** Writes a case ours got wrong or refused to DIR/<scenario>-<class>/ for inspection. */
async function dump(c: BenchCase, tree: Map<string, string>): Promise<void> {
  const dir = join(DUMP, `${c.scenario.id}-${c.klass}`);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'patch.diff'), c.diff);
  for (const [path, content] of c.scenario.original)
    await writeTree(join(dir, 'original'), new Map([[path, content]]));
  await writeTree(
    join(dir, 'intended'),
    new Map([...c.intended].filter(([, v]) => v !== undefined)),
  );
  await writeTree(join(dir, 'ours'), tree);
}

async function runCase(c: BenchCase, tools: readonly Tool[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const [i, tool] of tools.entries()) {
    await time('reset', () => resetTree(c.scenario.dir, c.scenario.original));
    const claimed = await time(tool.name, () => tool.apply(c.scenario.dir, c.diff));
    const tree = await readTree(c.scenario.dir);
    const outcome = !claimed ? 'refused' : sameTree(tree, c) ? 'correct' : 'wrong';
    if (i === 0 && outcome !== 'correct' && DUMP) await dump(c, tree);
    outcomes.push(outcome);
  }
  return outcomes;
}

async function main(): Promise<void> {
  const started = Date.now();
  const rng = createRng(SEED);
  const paths = rng.shuffle(
    findSources(['node_modules', '/usr/lib/python3', '/usr/lib/python3.11']),
  );
  const seen = new Set<string>();
  const pool: SourceFile[] = [];
  for (const p of paths) {
    if (pool.length >= BASES * 4) break;
    const src = loadSource(p, seen);
    if (src) pool.push(src);
  }

  const sourcesPerBase = 4;
  const bases = Array.from(
    { length: Math.min(BASES, Math.floor(pool.length / sourcesPerBase)) },
    (_, idx) => pool.slice(idx * sourcesPerBase, (idx + 1) * sourcesPerBase),
  );
  const logRefusal = (c: BenchCase, err: unknown): void => {
    if (!VERBOSE) return;
    const msg = isAutofixError(err)
      ? `${err.code}: ${err.message}`
      : String((err as Error).stack ?? err);
    console.error(
      `--- ours refused [${c.klass}] scenario ${c.scenario.id}\n${msg.slice(0, 1500)}\n`,
    );
  };
  const tools = (c: BenchCase): Tool[] => [
    ours((err) => logRefusal(c, err)),
    gitApply,
    gitApplyLoose,
    gnuPatch,
    jsdiffFuzz,
  ];
  const toolNames = tools({} as BenchCase).map((t) => t.name);
  const table = new Map<string, Outcome[][]>(CLASSES.map((k) => [k, []]));
  const scenarios: Scenario[] = [];
  const wrongs: BenchCase[] = [];
  let missedGitAccepts = 0;
  // Each edit has its own PRNG stream and sources, so running them concurrently stays reproducible.
  const runBase = async (idx: number): Promise<void> => {
    const built = await time('build', () =>
      buildCases(createRng(SEED + idx * 7919), [...(bases[idx] ?? [])], idx),
    );
    if (!built) return;
    scenarios.push(...built.scenarios);
    for (const c of built.cases) {
      const outcomes = await runCase(c, tools(c));
      table.get(c.klass)?.push(outcomes);
      if (outcomes[0] === 'wrong') wrongs.push(c);
      if (outcomes[1] === 'correct' && outcomes[0] !== 'correct') missedGitAccepts++;
    }
    for (const s of built.scenarios) await rm(s.dir, { recursive: true, force: true });
  };
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < bases.length) await runBase(next++);
      }),
    );
  } finally {
    for (const s of scenarios) await rm(s.dir, { recursive: true, force: true });
  }

  const cell = (rows: Outcome[][], t: number): string => {
    const count = (o: Outcome): number => rows.filter((r) => r[t] === o).length;
    return `${count('correct')}/${count('wrong')}/${count('refused')}`;
  };
  const widths = [24, 6, ...toolNames.map(() => 17)];
  const row = (cells: string[]): string =>
    cells
      .map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 10) : c.padStart(widths[i] ?? 10)))
      .join(' ');
  console.log(`patch benchmark: seed ${SEED}, ${BASES} edits; cells are correct/wrong/refused`);
  console.log(row(['damage class', 'n', ...toolNames]));
  const all: Outcome[][] = [];
  for (const [klass, rows] of table) {
    all.push(...rows);
    console.log(row([klass, String(rows.length), ...toolNames.map((_, t) => cell(rows, t))]));
  }
  console.log(row(['all', String(all.length), ...toolNames.map((_, t) => cell(all, t))]));
  const pct = (t: number): string =>
    ((100 * all.filter((r) => r[t] === 'correct').length) / Math.max(1, all.length)).toFixed(1);
  console.log(row(['correct %', '', ...toolNames.map((_, t) => `${pct(t)}%`)]));
  for (const w of wrongs) console.error(`WRONG [${w.klass}] scenario ${w.scenario.id}`);
  console.log(
    `patches accepted by git apply but refused by ours: ${missedGitAccepts}; runtime ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  if (VERBOSE)
    console.error([...timing].map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}s`).join(', '));
  const wrong = all.filter((r) => r[0] === 'wrong').length;
  console.log(`SUMMARY patch correct_pct=${pct(0)} wrong=${wrong}`);
}

await main();
