/**
 * Rebuilds `bench/context/instances.jsonl` from the Multi-SWE-bench instance files kept in a
 * public GitHub repository, plus the Python instances of SWE-bench's dev split kept in two
 * public GitHub repositories (see README.md). Run by hand:
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
import { goldOf, goldOfFiles, type Instance, type PatchFile } from './gold.js';
import type { MsweInstance } from './mswe-instance.js';

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

/**
 * Python: SWE-bench's *dev* split (repositories outside SWE-bench Lite's test set), as kept by two
 * public GitHub copies: SWE-bench Lite dev (23 instances, 6 repositories) and SWE-agent's test
 * data `swe-bench-dev-easy.json` (5 dev instances). Every instance of both is taken (deduplicated
 * by id); chosen before any ranking was run. pyvista/pyvista's snapshot is over the fetch size
 * limit, so its one instance is dropped as "base not in snapshot".
 */
const SWE_BENCH_SOURCES = [
  {
    gitDir: 'zhhhhhhhy+add_swebench_to_MASArena/repo',
    commit: 'af2702e0eef21b7965f9f6201aaaf333dc1386f9',
    file: 'data/SWE-bench-Lite-dev.jsonl',
  },
  {
    gitDir: 'kuppireddypravalika+MSWE-validation-dataset/repo',
    commit: DATASET_COMMIT,
    file: 'MSWE-agent/tests/test_data/data_sources/swe-bench-dev-easy.json',
  },
];

/**
 * Python, more of it: MULocBench (issue localization on 46 Python projects; Hugging Face
 * `somethingone/MULocBench`), as converted to SWE-bench's fields by a public GitHub copy
 * (`KenSu223/LocAgent`). It gives each issue's title and body, the base commit and the files the
 * fixing pull request changed (`file_loc`; no patch text). Taken, fixed before any ranking was
 * run: every instance of every repository with at least 20 instances there, except SWE-bench
 * Lite's test repositories (scikit-learn, requests, flask) and those whose snapshot `fetch`
 * refuses (pandas, transformers, home-assistant: over 500 MB).
 */
const MULOCBENCH_SOURCE = {
  gitDir: 'KenSu223+LocAgent/repo',
  commit: '853cfecbc0baf39bb60d19804fb486f890f4c249',
  file: 'evaluation/datasets/mulocbench/mulocbench.jsonl',
};
const MULOCBENCH_REPOS = [
  'yt-dlp/yt-dlp',
  'scrapy/scrapy',
  'localstack/localstack',
  'ansible/ansible',
  'ultralytics/yolov5',
  'AntonOsika/gpt-engineer',
  'CorentinJ/Real-Time-Voice-Cloning',
  'geekan/MetaGPT',
  'deepfakes/faceswap',
  'keras-team/keras',
  'All-Hands-AI/OpenHands',
  'nvbn/thefuck',
  'binary-husky/gpt_academic',
  'oobabooga/text-generation-webui',
  'fastapi/fastapi',
  '3b1b/manim',
  'zylon-ai/private-gpt',
];

/** One MULocBench instance as the copy keeps it (the fields used here). */
interface MulocInstance {
  instance_id: string;
  repo: string;
  base_commit: string;
  problem_statement: string;
  file_loc: { files?: { path?: string | null; status?: string | null }[] } | null;
}

/** MULocBench's file status as a patch's; a renamed file's path is its new one (not at base). */
function mulocFiles(raw: MulocInstance): PatchFile[] {
  const out: PatchFile[] = [];
  for (const f of raw.file_loc?.files ?? []) {
    if (!f.path) continue;
    const status = f.status === 'removed' ? 'deleted' : f.status === 'added' ? 'added' : 'modified';
    if (!out.some((o) => o.path === f.path)) out.push({ path: f.path, status });
  }
  return out;
}

function mulocInstances(dropped: string[]): Instance[] {
  const { gitDir, commit, file } = MULOCBENCH_SOURCE;
  const wanted = new Set(MULOCBENCH_REPOS);
  const out: Instance[] = [];
  const text = git(join(MIRRORS, gitDir), ['show', `${commit}:${file}`]);
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const raw = JSON.parse(line) as MulocInstance;
    if (!wanted.has(raw.repo)) continue;
    const [owner, name] = raw.repo.split('/');
    const mirror = join(MIRRORS, `${owner}+${name}`, 'repo');
    const found = goldAtBase(raw.instance_id, mirror, raw.base_commit, mulocFiles(raw), dropped);
    if (!found) continue;
    const number = Number(/-(\d+)$/.exec(raw.instance_id)?.[1] ?? 0);
    out.push({
      id: raw.instance_id,
      repo: raw.repo,
      language: 'py',
      pr: 0,
      issues: [number],
      base: raw.base_commit,
      issue: raw.problem_statement,
      gold: found.gold,
      excluded: found.excluded,
      dataset: 'mulocbench',
      source: `${gitDir.replace(/\/repo$/, '').replace('+', '/')}@${commit}:${file}`,
    });
  }
  return out;
}

/** One SWE-bench instance (the fields used here). */
interface SweBenchInstance {
  repo: string;
  instance_id: string;
  base_commit: string;
  patch: string;
  problem_statement: string;
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

/** Gold files that exist at the base commit, or undefined (with the reason in `dropped`). */
function goldAtBase(
  id: string,
  mirror: string,
  base: string,
  changed: string | readonly PatchFile[],
  dropped: string[],
): { gold: string[]; excluded: Instance['excluded'] } | undefined {
  if (!exists(mirror, `${base}^{commit}`)) {
    dropped.push(`${id}: base ${base} not in ${mirror}`);
    return undefined;
  }
  const { gold: candidates, excluded } =
    typeof changed === 'string' ? goldOf(changed) : goldOfFiles(changed);
  const gold: string[] = [];
  const allExcluded: Instance['excluded'] = [...excluded];
  for (const path of candidates) {
    if (exists(mirror, `${base}:${path}`)) gold.push(path);
    else allExcluded.push({ path, reason: 'missing-at-base' });
  }
  if (gold.length === 0) {
    dropped.push(`${id}: no gold file (${allExcluded.map((e) => e.reason).join(', ')})`);
    return undefined;
  }
  return { gold, excluded: allExcluded };
}

function sweBenchInstances(dropped: string[]): Instance[] {
  const out: Instance[] = [];
  const seen = new Set<string>();
  for (const source of SWE_BENCH_SOURCES) {
    const text = git(join(MIRRORS, source.gitDir), ['show', `${source.commit}:${source.file}`]);
    const raws: SweBenchInstance[] = source.file.endsWith('.jsonl')
      ? text
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l) as SweBenchInstance)
      : (JSON.parse(text) as SweBenchInstance[]);
    for (const raw of raws) {
      if (seen.has(raw.instance_id)) continue;
      seen.add(raw.instance_id);
      const [owner, name] = raw.repo.split('/');
      const mirror = join(MIRRORS, `${owner}+${name}`, 'repo');
      const found = goldAtBase(raw.instance_id, mirror, raw.base_commit, raw.patch, dropped);
      if (!found) continue;
      out.push({
        id: raw.instance_id,
        repo: raw.repo,
        language: 'py',
        pr: Number(/-(\d+)$/.exec(raw.instance_id)?.[1] ?? 0),
        issues: [],
        base: raw.base_commit,
        issue: raw.problem_statement,
        gold: found.gold,
        excluded: found.excluded,
        dataset: 'swe-bench-dev',
        source: `${source.gitDir.replace(/\/repo$/, '').replace('+', '/')}@${source.commit}:${source.file}`,
      });
    }
  }
  return out;
}

function main(): void {
  const out: Instance[] = [];
  const dropped: string[] = [];
  for (const file of DATASET_FILES) {
    const language = file.split('/')[2] ?? '?';
    const text = git(DATASET, ['show', `${DATASET_COMMIT}:${file}`]);
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const raw = JSON.parse(line) as MsweInstance;
      const repo = `${raw.org}/${raw.repo}`;
      const id = `${raw.org}__${raw.repo}-${raw.number}`;
      const mirror = join(MIRRORS, `${raw.org}+${raw.repo}`, 'repo');
      const found = goldAtBase(id, mirror, raw.base.sha, raw.fix_patch, dropped);
      if (!found) continue;
      const { gold, excluded: allExcluded } = found;
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
        dataset: 'multi-swe-bench',
        source: file,
      });
    }
  }
  out.push(...sweBenchInstances(dropped), ...mulocInstances(dropped));
  const number = (i: Instance): number => i.pr || (i.issues[0] ?? 0);
  out.sort((a, b) => (a.repo < b.repo ? -1 : a.repo > b.repo ? 1 : number(a) - number(b)));
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
