/**
 * `npm run bench:context`: localization on real issues (issue #18). For each instance of
 * `bench/context/instances.jsonl` (real issues and the files their upstream fix changed, from
 * Multi-SWE-bench, SWE-bench dev and MULocBench; see bench/context/README.md), the repository is
 * checked out at the fix's parent commit and ranked two ways for the issue text (title + body):
 *   - the product: `explainContext`, what `autofix context` runs (repo map, `rankFiles`, prompt
 *     context), timed per issue in process (no CLI start);
 *   - plain BM25 over path + content words of the same repo map's files (`bm25.ts`,
 *     `splitWords`), as the baseline.
 * any@k: share of issues for which at least one gold file (non-test, non-doc source that the fix
 * changed and that exists at the base commit) is among the first k files.
 *
 * Checkouts come from the bare snapshots under /work/.mirror/<owner>+<name>/repo (no network):
 * one clone per repository under the work directory (sharing the snapshot's objects), whose files
 * and index are rewritten for each base commit (`context/checkout.ts`).
 * Prints a table, the product's worst misses, then
 * `SUMMARY context any1=… any3=… any5=… any10=… bm25_any1=… bm25_any5=… bm25_any10=… ms_p50=…`
 * (fractions 0–1).
 * Flags: --only TEXT (instances whose id contains it), --dataset NAME (multi-swe-bench,
 * swe-bench-dev or mulocbench), --limit N, --misses N (default 10),
 * --json FILE (every result), --ranking FILE (each issue's whole ranking, one JSON line per
 * issue: every ranked file's score, points and reasons, to compare two builds of the ranker),
 * --mirrors DIR, --workdir DIR,
 * --keep-trees (one checkout per instance, kept in the work directory and reused by later runs:
 * gigabytes of disk, but a rerun only ranks), --no-bm25 (the product only; BM25 columns blank).
 */
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBm25Index } from '../src/context/bm25.js';
import { checkoutAt } from './context/checkout.js';
import { DEFAULT_CONTEXT_BUDGET } from '../src/context/build-prompt-context.js';
import { buildRepoMap } from '../src/context/build-repo-map.js';
import { explainContext } from '../src/context/explain-context.js';
import { splitWords } from '../src/context/split-words.js';
import {
  anyAt,
  bestGoldRank,
  isDocPath,
  isSourcePath,
  isTestPath,
  median,
  type Instance,
} from './context/gold.js';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const ONLY = flag('only');
const DATASET = flag('dataset');
const LIMIT = flag('limit') ? Number(flag('limit')) : undefined;
const MISSES = Number(flag('misses') ?? 10);
const KEEP_TREES = process.argv.includes('--keep-trees');
const NO_BM25 = process.argv.includes('--no-bm25');
const JSON_OUT = flag('json');
const RANKING_OUT = flag('ranking');
const MIRRORS = flag('mirrors') ?? '/work/.mirror';
const WORKDIR = flag('workdir') ?? join(tmpdir(), 'autofix-bench-context');
const INSTANCES = fileURLToPath(new URL('../../bench/context/instances.jsonl', import.meta.url));
const KS = [1, 3, 5, 10] as const;

interface Result {
  id: string;
  repo: string;
  language: string;
  dataset: string;
  gold: string[];
  files: number;
  context: {
    rank: number | undefined;
    ms: number;
    top: string[];
    goldRanks: Record<string, number>;
    /** Score and reasons of the first five files and of the gold files (for analysis). */
    why: Record<string, { score: number; points: Record<string, number>; reasons: string[] }>;
    /** Score by kind of evidence of the first 30 files (for a weight search). */
    points: [string, Record<string, number>][];
  };
  bm25: { rank: number | undefined; ms: number; top: string[] };
}

/** Plain BM25 over path + content words, best first, score > 0, ties by path. */
async function bm25Ranking(dir: string, issue: string): Promise<string[]> {
  const map = await buildRepoMap(dir);
  const index = createBm25Index(
    map.files.map((f) => [...splitWords(f.path), ...splitWords(f.content)]),
  );
  const scores = index.score([...new Set(splitWords(issue))]);
  return map.files
    .map((f, i) => ({ path: f.path, score: scores[i] ?? 0 }))
    .filter((e) => e.score > 0)
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((e) => e.path);
}

async function runOne(instance: Instance): Promise<Result> {
  const dir = checkoutAt(instance.repo, instance.base, {
    mirrors: MIRRORS,
    workdir: WORKDIR,
    keep: KEEP_TREES,
  });
  let start = performance.now();
  const report = await explainContext(dir, instance.issue, {
    budget: DEFAULT_CONTEXT_BUDGET,
    top: Number.MAX_SAFE_INTEGER,
  });
  const contextMs = performance.now() - start;
  if (RANKING_OUT)
    await appendFile(
      RANKING_OUT,
      `${JSON.stringify({ id: instance.id, ranking: report.ranking })}\n`,
    );
  const ranked = report.ranking.map((r) => r.path);
  start = performance.now();
  const bm25 = NO_BM25 ? [] : await bm25Ranking(dir, instance.issue);
  const bm25Ms = performance.now() - start;
  const goldRanks: Record<string, number> = {};
  for (const g of instance.gold) {
    const i = ranked.indexOf(g);
    if (i >= 0) goldRanks[g] = i + 1;
  }
  const why: Record<string, { score: number; points: Record<string, number>; reasons: string[] }> =
    {};
  for (const r of report.ranking)
    if (ranked.indexOf(r.path) < 5 || instance.gold.includes(r.path))
      why[r.path] = { score: r.score, points: r.points, reasons: r.reasons };
  return {
    id: instance.id,
    repo: instance.repo,
    language: instance.language,
    dataset: instance.dataset,
    gold: instance.gold,
    files: report.files,
    context: {
      rank: bestGoldRank(ranked, instance.gold),
      ms: contextMs,
      top: ranked.slice(0, 10),
      goldRanks,
      why,
      points: report.ranking.slice(0, 30).map((r) => [r.path, r.points]),
    },
    bm25: { rank: bestGoldRank(bm25, instance.gold), ms: bm25Ms, top: bm25.slice(0, 10) },
  };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}`.padStart(5);
const fraction = (x: number): string => x.toFixed(3);

/** Share of the first five slots that hold tests, docs or other non-source files. */
function nonSourceTop5(results: Result[], pick: (r: Result) => string[]): number {
  const slots = results.flatMap((r) => pick(r).slice(0, 5));
  if (slots.length === 0) return 0;
  return (
    slots.filter((p) => isTestPath(p) || isDocPath(p) || !isSourcePath(p)).length / slots.length
  );
}

function row(label: string, results: Result[]): string {
  const c = results.map((r) => r.context.rank);
  const b = results.map((r) => r.bm25.rank);
  const cells = [
    label.padEnd(34),
    String(results.length).padStart(4),
    String(median(results.map((r) => r.files))).padStart(6),
    ...KS.map((k) => pct(anyAt(c, k))),
    pct(nonSourceTop5(results, (r) => r.context.top)),
    ' |',
    ...(NO_BM25
      ? KS.map(() => '    -').concat('    -')
      : [...KS.map((k) => pct(anyAt(b, k))), pct(nonSourceTop5(results, (r) => r.bm25.top))]),
    ' |',
    median(results.map((r) => r.context.ms))
      .toFixed(0)
      .padStart(7),
    median(results.map((r) => r.bm25.ms))
      .toFixed(0)
      .padStart(7),
  ];
  return cells.join(' ');
}

async function main(): Promise<void> {
  const instances = (await readFile(INSTANCES, 'utf8'))
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Instance)
    .filter((i) => (!ONLY || i.id.includes(ONLY)) && (!DATASET || i.dataset === DATASET))
    .slice(0, LIMIT);
  await mkdir(WORKDIR, { recursive: true });
  if (RANKING_OUT) await writeFile(RANKING_OUT, '');
  const results: Result[] = [];
  const started = performance.now();
  for (const [n, instance] of instances.entries()) {
    const r = await runOne(instance);
    results.push(r);
    process.stderr.write(
      `[${n + 1}/${instances.length}] ${r.id}: context ${r.context.rank ?? '-'} bm25 ${r.bm25.rank ?? '-'} (${r.context.ms.toFixed(0)} ms)\n`,
    );
  }
  const totalS = (performance.now() - started) / 1000;

  const repos = [...new Set(results.map((r) => r.repo))].sort();
  const languages = [...new Set(results.map((r) => r.language))].sort();
  const datasets = [...new Set(results.map((r) => r.dataset))].sort();
  const head = [
    'set'.padEnd(34),
    '   n',
    ' files',
    ...KS.map((k) => `@${k}`.padStart(5)),
    ' doc5',
    ' |',
    ...KS.map((k) => `@${k}`.padStart(5)),
    ' doc5',
    ' |',
    ' ctx ms',
    'bm25 ms',
  ].join(' ');
  console.log(
    `Localization on ${results.length} real issues over ${repos.length} repositories (${datasets.join(', ')}; ${totalS.toFixed(0)} s)`,
  );
  console.log(
    `any@k in PERCENT of issues: a changed non-test source file among the first k. doc5: % of top-5 slots that are tests/docs/non-source. files: median files in the map. ms: p50 per issue, in process. SUMMARY: fractions 0–1.`,
  );
  console.log('');
  console.log(
    `${''.padEnd(46)}${'autofix context'.padEnd(32)}  ${'BM25 (path + content)'.padEnd(32)}  time`,
  );
  console.log(head);
  for (const repo of repos)
    console.log(
      row(
        repo,
        results.filter((r) => r.repo === repo),
      ),
    );
  console.log('-'.repeat(head.length));
  for (const language of languages)
    console.log(
      row(
        `language ${language}`,
        results.filter((r) => r.language === language),
      ),
    );
  for (const dataset of datasets)
    console.log(
      row(
        `dataset ${dataset}`,
        results.filter((r) => r.dataset === dataset),
      ),
    );
  console.log(row('all', results));

  const misses = results
    .filter((r) => r.context.rank === undefined || r.context.rank > 5)
    .sort(
      (a, b) =>
        (b.context.rank ?? Infinity) - (a.context.rank ?? Infinity) || (a.id < b.id ? -1 : 1),
    );
  console.log('');
  console.log(
    `Misses of autofix context (no gold file in the top 5): ${misses.length}; the worst ${Math.min(MISSES, misses.length)}:`,
  );
  for (const m of misses.slice(0, MISSES)) {
    const golds = m.gold.map((g) => `${g} @${m.context.goldRanks[g] ?? 'unranked'}`).join(', ');
    console.log(`  ${m.id}: gold ${golds}; bm25 best @${m.bm25.rank ?? 'unranked'}`);
    console.log(`      ranked first: ${m.context.top.slice(0, 3).join(', ') || '(nothing)'}`);
  }
  if (JSON_OUT) await writeFile(JSON_OUT, JSON.stringify(results, null, 1));

  const c = results.map((r) => r.context.rank);
  const b = results.map((r) => r.bm25.rank);
  console.log('');
  console.log(
    `SUMMARY context any1=${fraction(anyAt(c, 1))} any3=${fraction(anyAt(c, 3))} any5=${fraction(anyAt(c, 5))} any10=${fraction(anyAt(c, 10))} ${NO_BM25 ? 'bm25=skipped' : `bm25_any1=${fraction(anyAt(b, 1))} bm25_any5=${fraction(anyAt(b, 5))} bm25_any10=${fraction(anyAt(b, 10))}`} ms_p50=${median(results.map((r) => r.context.ms)).toFixed(0)}`,
  );
}

await main();
