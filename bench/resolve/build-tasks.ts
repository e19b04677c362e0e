/**
 * Rebuilds `bench/resolve/tasks.jsonl` from the Multi-SWE-bench copy kept in a public GitHub
 * repository (see README.md). Run by hand:
 *
 *   npm run build && node dist/bench/resolve/build-tasks.js [--dataset GIT_DIR] [--numbers 2377,…]
 *     [--with-validate] [--out FILE]
 *
 * `--dataset` is the bare git directory of kuppireddypravalika/MSWE-validation-dataset (default
 * under /work/.mirror/); `--numbers` the pull requests taken from `iamkun/dayjs` (default: the
 * handful below, picked for recent bases, one source file changed and a jest test that decides).
 * The test command runs only the files the fail-to-pass tests live in (the harness's own
 * `npm test` runs the whole suite in four time zones); pass-to-pass tests of those files are
 * checked too. `--with-validate` also gives each task `setup` (the install, run by the pipeline
 * through its egress proxy) and `validate` (the whole jest suite, no coverage), so the pipeline
 * validates, runs the baseline, asks the reproducer and offers `run_tests` to the tools strategy.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testFilesOf, type ResolveTask } from './tasks.js';
import type { MsweInstance } from '../context/mswe-instance.js';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const DATASET = flag('dataset') ?? '/work/.mirror/kuppireddypravalika+MSWE-validation-dataset/repo';
const DATASET_COMMIT = '2f1d8cce22e9aa41613682b2f4f3ccdddbf90a85';
const DATASET_FILE = 'MSWE-agent/data/js/iamkun__dayjs_dataset.jsonl';
const NUMBERS = (flag('numbers') ?? '2377,2369,2367,2231,2175,1567,1319').split(',').map(Number);
const WITH_VALIDATE = process.argv.includes('--with-validate');
const OUT =
  flag('out') ?? fileURLToPath(new URL('../../../bench/resolve/tasks.jsonl', import.meta.url));
const VALIDATE = ['npx jest --coverage=false'];

/** What the harness's image does before its tests, less the global tools it adds. */
const INSTALL = ['npm install --no-audit --no-fund --ignore-scripts --legacy-peer-deps'];

function toTask(raw: MsweInstance): ResolveTask {
  const issue = raw.resolved_issues[0];
  if (!issue) throw new Error(`${raw.org}/${raw.repo}#${raw.number}: no resolved issue`);
  const f2p = Object.keys(raw.f2p_tests);
  const files = testFilesOf(f2p);
  return {
    id: `${raw.org}__${raw.repo}-${raw.number}`,
    repo: `${raw.org}/${raw.repo}`,
    number: issue.number,
    base: raw.base.sha,
    issue: { title: issue.title ?? '', body: issue.body ?? '' },
    install: INSTALL,
    ...(WITH_VALIDATE ? { setup: INSTALL, validate: VALIDATE } : {}),
    test: [`npx jest --verbose --coverage=false ${files.join(' ')}`],
    fail_to_pass: f2p,
    // Only the tests of the files run: the others would need the whole suite.
    pass_to_pass: Object.keys(raw.p2p_tests).filter((t) => files.includes(t.split(':')[0] ?? t)),
    test_patch: raw.test_patch,
    fix_patch: raw.fix_patch,
  };
}

function main(): void {
  const text = execFileSync(
    'git',
    ['--git-dir', DATASET, 'show', `${DATASET_COMMIT}:${DATASET_FILE}`],
    { encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  const raws = text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as MsweInstance);
  const tasks = NUMBERS.map((n) => {
    const raw = raws.find((r) => r.number === n);
    if (!raw) throw new Error(`no pull request #${n} in ${DATASET_FILE}`);
    return toTask(raw);
  });
  writeFileSync(OUT, tasks.map((t) => JSON.stringify(t)).join('\n') + '\n');
  process.stdout.write(`${tasks.length} tasks written to ${join(OUT)}\n`);
}

main();
