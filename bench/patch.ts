/**
 * `npm run bench:patch`: how often each applier turns a damaged LLM-style diff into exactly the
 * intended files. A reproducible corpus (seeded PRNG over source files already on the machine)
 * of realistic edits; git's own diff is the gold; ours and the anchors run in fresh temp repos.
 *
 * Damage classes (a table row each, generated for every edit where it applies):
 * - issue 3 item 2: clean, wrong-line-numbers, wrong-line-counts, bare-headers (`@@ @@`),
 *   no-git-headers, no-prefixes, crlf-diff, lf-diff-crlf-file, trailing-ws-dropped, tab-space-drift,
 *   blank-context-no-space, out-of-order, one-line-context (`-U1`), misquoted-context,
 *   no-eof-marker, combined (2-3 of them at once).
 * - indent-shift±2/±4/±8/±tab: every context, removed and added line of every hunk re-indented by
 *   the same amount (a model re-indenting a quoted snippet); blank lines stay blank, created files
 *   stay as they are, the minus classes only where every non-blank hunk line has that indentation.
 * - header-dots (`@@ ... @@`), header-bare-at (`@@`), header-function (`@@ <scope line>`, the
 *   apply_patch style: git's heading, else the nearest less-indented line above the hunk).
 * - one-line-context-repeated: a `-U1` diff of an edit at or next to a line that occurs at least
 *   3 times in the file (`}`, `return;`, `pass`, a blank line…); also +wrong-line-numbers.
 * - resent-insertion: a pure insertion among look-alike lines sent again to the tree that already
 *   has it (also with bare headers); it must not be inserted twice.
 * - cut-off answers (issue #33, `patch/cut-answers.ts`), numbered and bare headers: cut right after
 *   a `-` line whose `+` replacement follows (cut-after-removed), in the middle of a `+` line
 *   (cut-mid-added), at any line end mid-hunk before the hunk's last change (cut-mid-hunk), and in
 *   the trailing context of the last hunk (cut-trailing-context: nothing lost, correct is right).
 *   Everything after the cut is lost; files that exist before are cut.
 * - lazy answers (`patch/lazy-answers.ts`): one hunk rewritten as a block (removed and added,
 *   wider than git's hunk) with a run of unchanged code in its added lines replaced by a
 *   placeholder in the file's comment style (`# ... existing code ...`, `// rest of the function
 *   unchanged`, `...`); numbered and bare headers.
 * - ellipsis-comments-kept (`patch/kept-comments.ts`): a block of a real file holding a line that
 *   looks like a placeholder (a comment with `...`, `# ...`, a doctest's or stub's `...`) rewritten
 *   with a real change near it (and, half the time, a new `TODO: ...` comment): must apply exactly.
 * - the whole-file formats, which only ours reads (`patch/whole-file-answers.ts`; the other tools'
 *   cells are `—`): one changed file of the edit written whole as fenced-files (fenced-kept: must
 *   apply exactly), with a run of its unchanged code or its whole rest replaced by a placeholder
 *   (fenced-lazy), and cut off mid-content as a fenced block or json-writes JSON (fenced-cut,
 *   json-cut).
 *
 * Outcomes per tool: correct = tree byte-identical to the intended one; wrong = claimed success,
 * tree differs; refused = reported failure, tree unchanged; corrupted = reported failure, tree
 * changed (half-applied). For the resent cases (expect already-applied) the intended tree is the
 * starting one, and a refusal or a successful no-op is correct. For the cut-off and lazy classes
 * the intended tree is the edit's, which cannot be written from them: refused counts as right
 * (their own table under the main one: right % and wrong+corrupted per tool), and the SUMMARY
 * adds `cut_*`/`lazy_*`/`whole_file_*` keys (per tool where it ran), `<kept class>_pct` and
 * `earlier_refused` (ours' refusals on the classes before issue #33: must not grow).
 * `correct_pct`, `wrong` and `corrupted` count the earlier classes only, comparable with runs
 * before the new classes. A cut at a line end right after a hunk's full trailing context is not
 * generated: such a diff is complete to every reader (only the server's finish reason tells).
 * Under the table: each tool's median and p90 wall time of one apply.
 * Flags: --bases N (default 100), --seed N, --jobs N (concurrent edits, default 2),
 * --verbose (our refusals on stderr), --dump DIR (cases ours did not get right).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isAutofixError } from '../src/errors.js';
import {
  BASE_CLASSES,
  CLASSES,
  EARLIER_CLASSES,
  KEPT_CLASSES,
  NEW_FAMILIES,
  REFUSAL_FAMILIES,
  buildCases,
} from './patch/corpus.js';
import type { BenchCase, Scenario } from './patch/corpus.js';
import { exclusive } from './patch/gate.js';
import { hasPlaceholderLike } from './patch/kept-comments.js';
import { createRng } from './patch/prng.js';
import { readTree, resetTree, writeTree } from './patch/repo.js';
import { findSources, loadSource } from './patch/sources.js';
import type { SourceFile } from './patch/sources.js';
import { gitApply, gitApplyLoose, gnuPatch, jsdiffFuzz, ours } from './patch/tools.js';
import type { Tool } from './patch/tools.js';

/** `skipped`: an answer in a format only ours reads. */
type Outcome = 'correct' | 'wrong' | 'refused' | 'corrupted' | 'skipped';

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

function sameTree(
  tree: Map<string, string>,
  want: ReadonlyMap<string, string | undefined>,
): boolean {
  for (const [path, content] of want) if (tree.get(path) !== content) return false;
  for (const path of tree.keys()) if (want.get(path) === undefined) return false;
  return true;
}

function judge(c: BenchCase, claimed: boolean, tree: Map<string, string>): Outcome {
  const unchanged = sameTree(tree, c.scenario.original);
  if (c.expect === 'already-applied')
    return claimed ? (unchanged ? 'correct' : 'wrong') : unchanged ? 'correct' : 'corrupted';
  if (!claimed) return unchanged ? 'refused' : 'corrupted';
  return sameTree(tree, c.intended) ? 'correct' : 'wrong';
}

/** Wall time of each tool's apply calls, per tool index. */
const applyMs: number[][] = [];

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
    if (c.format !== undefined && i > 0) {
      outcomes.push('skipped');
      continue;
    }
    await time('reset', () => resetTree(c.scenario.dir, c.scenario.original));
    // Alone on the event loop: no other edit's synchronous spawn lands inside the timed run.
    const claimed = await exclusive(() =>
      time(tool.name, async () => {
        const t = performance.now();
        try {
          return await tool.apply(c.scenario.dir, c.diff, c.format);
        } finally {
          (applyMs[i] ??= []).push(performance.now() - t);
        }
      }),
    );
    const tree = await readTree(c.scenario.dir);
    const outcome = judge(c, claimed, tree);
    if (i === 0 && outcome !== 'correct' && !(c.refusalOk && outcome === 'refused') && DUMP)
      await dump(c, tree);
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

  // Sources with lines that look like placeholders (for `ellipsis-comments-kept`), one per edit.
  const keptPool = pool.filter((s) => hasPlaceholderLike(s.text));
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
  const wrongs: [BenchCase, Outcome][] = [];
  const repeated = { cases: 0, ambiguous: 0 };
  let missedGitAccepts = 0;
  // Each edit has its own PRNG stream and sources, so running them concurrently stays reproducible.
  const runBase = async (idx: number): Promise<void> => {
    const built = await time('build', () =>
      buildCases(
        createRng(SEED + idx * 7919),
        [...(bases[idx] ?? [])],
        idx,
        keptPool[idx % Math.max(1, keptPool.length)],
      ),
    );
    if (!built) return;
    scenarios.push(...built.scenarios);
    for (const c of built.cases) {
      const outcomes = await runCase(c, tools(c));
      table.get(c.klass)?.push(outcomes);
      if (outcomes[0] === 'wrong' || outcomes[0] === 'corrupted') wrongs.push([c, outcomes[0]]);
      if (
        c.expect === 'apply' &&
        !c.refusalOk &&
        outcomes[1] === 'correct' &&
        outcomes[0] !== 'correct'
      )
        missedGitAccepts++;
      if (c.klass === 'one-line-context-repeated') {
        repeated.cases++;
        if (c.ambiguous) repeated.ambiguous++;
      }
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

  const count = (rows: Outcome[][], t: number, o: Outcome): number =>
    rows.filter((r) => r[t] === o).length;
  /** The rows a tool ran (ours reads every format, the others udiff only). */
  const ran = (rows: Outcome[][], t: number): Outcome[][] => rows.filter((r) => r[t] !== 'skipped');
  const cell = (rows: Outcome[][], t: number): string =>
    rows.length > 0 && ran(rows, t).length === 0
      ? '—'
      : (['correct', 'wrong', 'refused', 'corrupted'] as const)
          .map((o) => count(rows, t, o))
          .join('/');
  const widths = [Math.max(...CLASSES.map((k) => k.length)) + 1, 6, ...toolNames.map(() => 17)];
  const row = (cells: string[]): string =>
    cells
      .map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 10) : c.padStart(widths[i] ?? 10)))
      .join(' ');
  console.log(
    `patch benchmark: seed ${SEED}, ${BASES} edits; cells are correct/wrong/refused/corrupted`,
  );
  console.log(row(['damage class', 'n', ...toolNames]));
  const all: Outcome[][] = [];
  for (const [klass, rows] of table) {
    all.push(...rows);
    console.log(row([klass, String(rows.length), ...toolNames.map((_, t) => cell(rows, t))]));
  }
  console.log(row(['all', String(all.length), ...toolNames.map((_, t) => cell(all, t))]));
  const pctOf = (rows: Outcome[][], t: number): string =>
    ((100 * count(rows, t, 'correct')) / Math.max(1, ran(rows, t).length)).toFixed(1);
  console.log(row(['correct %', '', ...toolNames.map((_, t) => `${pctOf(all, t)}%`)]));
  const quantile = (t: number, q: number): number => {
    const xs = [...(applyMs[t] ?? [])].sort((a, b) => a - b);
    if (xs.length === 0) return NaN;
    const at = (xs.length - 1) * q;
    const lo = Math.floor(at);
    return (xs[lo] ?? 0) + ((xs[Math.ceil(at)] ?? 0) - (xs[lo] ?? 0)) * (at - lo);
  };
  const ms = (v: number): string => v.toFixed(1);
  console.log(
    row([
      'ms per patch (med/p90)',
      '',
      ...toolNames.map((_, t) => `${ms(quantile(t, 0.5))}/${ms(quantile(t, 0.9))}`),
    ]),
  );
  for (const [w, o] of wrongs)
    console.error(`${o.toUpperCase()} [${w.klass}] scenario ${w.scenario.id}`);
  console.log(
    `one-line-context-repeated: ${repeated.ambiguous} of ${repeated.cases} have a hunk whose text occurs more than once in its file`,
  );
  console.log(
    `patches accepted by git apply but refused by ours: ${missedGitAccepts}; runtime ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  if (VERBOSE)
    console.error([...timing].map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}s`).join(', '));
  const rowsOf = (classes: readonly string[]): Outcome[][] =>
    classes.flatMap((k) => table.get(k) ?? []);
  const newRows = rowsOf(Object.values(NEW_FAMILIES).flat());
  const earlier = rowsOf(EARLIER_CLASSES);
  // Cut-off and lazy answers: refused is as right as correct; wrong and corrupted are failures.
  const bad = (rows: Outcome[][], t: number): number =>
    count(rows, t, 'wrong') + count(rows, t, 'corrupted');
  const rightPct = (rows: Outcome[][], t: number): string =>
    ran(rows, t).length === 0
      ? '—'
      : `${((100 * (ran(rows, t).length - bad(rows, t))) / ran(rows, t).length).toFixed(1)}%`;
  const refusalRows = Object.values(REFUSAL_FAMILIES).flat();
  console.log(
    `cut-off and lazy answers (${refusalRows.length} classes, refused counts as right): right % / wrong+corrupted`,
  );
  for (const [family, classes] of Object.entries(REFUSAL_FAMILIES)) {
    const rows = rowsOf(classes);
    console.log(
      row([
        family,
        String(rows.length),
        ...toolNames.map((_, t) => `${rightPct(rows, t)} / ${bad(rows, t)}`),
      ]),
    );
  }
  console.log(
    `false refusals by ours on the earlier classes: ${count(earlier, 0, 'refused')} of ${earlier.length}`,
  );
  const keys = [
    `correct_pct=${pctOf(earlier, 0)}`,
    `wrong=${count(earlier, 0, 'wrong')}`,
    `corrupted=${count(earlier, 0, 'corrupted')}`,
    `base_classes_pct=${pctOf(rowsOf(BASE_CLASSES), 0)}`,
    ...Object.entries(NEW_FAMILIES).map(([f, ks]) => `${f}_pct=${pctOf(rowsOf(ks), 0)}`),
    `new_wrong=${count(newRows, 0, 'wrong') + count(newRows, 0, 'corrupted')}`,
    `earlier_refused=${count(earlier, 0, 'refused')}`,
    ...Object.entries(REFUSAL_FAMILIES).flatMap(([f, ks]) => [
      `${f}_right_pct=${rightPct(rowsOf(ks), 0).replace('%', '')}`,
      `${f}_wrong=${bad(rowsOf(ks), 0)}`,
      ...(
        [
          ['git', 1],
          ['patch', 3],
          ['jsdiff', 4],
        ] as const
      )
        .filter(([, t]) => ran(rowsOf(ks), t).length > 0)
        .map(([name, t]) => `${f}_wrong_${name}=${bad(rowsOf(ks), t)}`),
    ]),
    ...KEPT_CLASSES.map((k) => `${k.replace(/-/g, '_')}_pct=${pctOf(rowsOf([k]), 0)}`),
    `ours_median_ms=${ms(quantile(0, 0.5))}`,
    `git_median_ms=${ms(quantile(1, 0.5))}`,
  ];
  console.log(`SUMMARY patch ${keys.join(' ')}`);
}

await main();
