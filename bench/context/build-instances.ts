/**
 * Rebuilds `bench/context/instances.jsonl` from the Multi-SWE-bench instance files kept in a
 * public GitHub repository (see README.md). Run by hand:
 *
 *   npm run build && node dist/bench/context/build-instances.js [--dataset GIT_DIR] [--mirrors DIR]
 *
 * `--dataset` is the bare git directory that `fetch` brought of
 * kuppireddypravalika/MSWE-validation-dataset (default under /work/.mirror/); `--mirrors` holds
 * the repositories' own snapshots (`<owner>+<name>/repo`). Every instance of the listed files is
 * taken; an instance is dropped only when its base commit is not in the snapshot or when no gold
 * file is left (printed). No ranker runs here.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { goldOf, type Instance } from './gold.js';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const MIRRORS = flag('mirrors') ?? '/work/.mirror';
const DATASET =
  flag('dataset') ?? join(MIRRORS, 'kuppireddypravalika+MSWE-validation-dataset/repo');
const DATASET_COMMIT = '2f1d8cce22e9aa41613682b2f4f3ccdddbf90a85';

/**
 * Every JavaScript and TypeScript file of the copy that holds instances (svelte, material-ui and
 * vuejs/core are Git LFS pointers there), then the Go files with instances (cli/cli is a pointer),
 * to pass 100 instances over 8 repositories. Chosen by language before any ranking was run.
 */
const DATASET_FILES = [
  'MSWE-agent/data/js/Kong__insomnia_dataset.jsonl',
  'MSWE-agent/data/js/anuraghazra__github-readme-stats_dataset.jsonl',
  'MSWE-agent/data/js/axios__axios_dataset.jsonl',
  'MSWE-agent/data/js/expressjs__express_dataset.jsonl',
  'MSWE-agent/data/js/iamkun__dayjs_dataset.jsonl',
  'MSWE-agent/data/ts/darkreader__darkreader_dataset.jsonl',
  'MSWE-agent/data/go/grpc__grpc-go_dataset.jsonl',
  'MSWE-agent/data/go/zeromicro__go-zero_dataset.jsonl',
];

interface RawInstance {
  org: string;
  repo: string;
  number: number;
  base: { sha: string };
  resolved_issues: { number: number; title?: string | null; body?: string | null }[];
  fix_patch: string;
}

const git = (gitDir: string, args: string[]): string =>
  execFileSync('git', ['--git-dir', gitDir, ...args], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });

const exists = (gitDir: string, spec: string): boolean => {
  try {
    execFileSync('git', ['--git-dir', gitDir, 'cat-file', '-e', spec], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

function main(): void {
  const out: Instance[] = [];
  const dropped: string[] = [];
  for (const file of DATASET_FILES) {
    const language = file.split('/')[2] ?? '?';
    const text = git(DATASET, ['show', `${DATASET_COMMIT}:${file}`]);
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const raw = JSON.parse(line) as RawInstance;
      const repo = `${raw.org}/${raw.repo}`;
      const id = `${raw.org}__${raw.repo}-${raw.number}`;
      const mirror = join(MIRRORS, `${raw.org}+${raw.repo}`, 'repo');
      if (!exists(mirror, `${raw.base.sha}^{commit}`)) {
        dropped.push(`${id}: base ${raw.base.sha} not in ${mirror}`);
        continue;
      }
      const { gold: candidates, excluded } = goldOf(raw.fix_patch);
      const gold: string[] = [];
      const allExcluded: Instance['excluded'] = [...excluded];
      for (const path of candidates) {
        if (exists(mirror, `${raw.base.sha}:${path}`)) gold.push(path);
        else allExcluded.push({ path, reason: 'missing-at-base' });
      }
      if (gold.length === 0) {
        dropped.push(`${id}: no gold file (${allExcluded.map((e) => e.reason).join(', ')})`);
        continue;
      }
      const issue = raw.resolved_issues
        .map((r) => [r.title ?? '', r.body ?? ''].join('\n\n'))
        .join('\n\n');
      out.push({
        id,
        repo,
        language,
        pr: raw.number,
        issues: raw.resolved_issues.map((r) => r.number),
        base: raw.base.sha,
        issue,
        gold,
        excluded: allExcluded,
        source: file,
      });
    }
  }
  out.sort((a, b) => (a.repo < b.repo ? -1 : a.repo > b.repo ? 1 : a.pr - b.pr));
  const target = join(
    dirname(fileURLToPath(import.meta.url)),
    '../../../bench/context/instances.jsonl',
  );
  writeFileSync(target, out.map((i) => JSON.stringify(i)).join('\n') + '\n');
  const repos = new Set(out.map((i) => i.repo));
  console.log(`${out.length} instances over ${repos.size} repositories → ${target}`);
  for (const d of dropped) console.log(`dropped ${d}`);
}

main();
