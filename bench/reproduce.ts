/**
 * bench:reproduce (issue #17, "Measure"): the reproduce stage on replays of real upstream fixes.
 *
 * For each selected Multi-SWE-bench instance (bench/context/instances.jsonl, with `fix_patch` and
 * `test_patch` read from the dataset snapshot), a fresh local git repository at the fix's base
 * commit (files written from the repository's snapshot under /work/.mirror), with a
 * `.github/autofix.yml` whose `setup` installs the dependencies and whose `validate` runs the
 * repository's test runner on the test files the upstream test patch touched. Then `runLocal`
 * (the product's in-process `autofix run`, bwrap sandbox) against a scripted model that replays
 * the upstream change:
 *
 * - triage: `classification: fix`;
 * - planner: the files of `fix_patch`;
 * - reproducer: the first test file of `test_patch` (in patch order, of the repository's test
 *   runner), its full content after the patch, under a NEW path in the same folder that the
 *   runner still picks up (`test/display.test.js` → `test/display.issue-318.test.js`), with the
 *   runner command `npx jest PATH` / `npx mocha PATH`;
 * - code agent (and code fixer, if asked): `fix_patch` minus test files, as a ```diff block;
 * - pr-generator: a fixed summary.
 *
 * Selection (fixed before any run): the four JavaScript repositories of instances.jsonl that are
 * one package at their root (iamkun/dayjs, expressjs/express, axios/axios,
 * anuraghazra/github-readme-stats), the first `--per-repo` (default 3) instances of each by PR
 * number. Kong/insomnia (an Electron monorepo) and darkreader (TypeScript, browser build) are
 * left out for the install time.
 *
 *   npm run bench:reproduce [-- --per-repo N] [--only TEXT] [--json FILE] [--keep]
 *
 * Last line: `SUMMARY reproduce runs=… reproduced=… share=… pr_evidence=… stage_ms_p50=…
 * run_ms_p50=…` (share = reproduced / runs; pr_evidence = runs whose pull-request.md carries
 * "### Reproduction", "fails on the base commit" and "passes with the fix").
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSettings } from '../src/config/env.js';
import { writeTree } from './context/write-tree.js';
import { agentOf } from '../src/demo/demo-llm.js';
import { startScriptedLlmServer, type StaticReply } from '../fakes/llm/index.js';
import { createLogger } from '../src/logger.js';
import { runLocal, type LocalRunReport } from '../src/hosts/local/run-local.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}
const MIRRORS = flag('mirrors') ?? '/work/.mirror';
const DATASET =
  flag('dataset') ?? join(MIRRORS, 'kuppireddypravalika+MSWE-validation-dataset/repo');
const PER_REPO = Number(flag('per-repo') ?? 3);
const ONLY = flag('only');
const JSON_OUT = flag('json');
const KEEP = process.argv.includes('--keep');

/** How each repository runs one test file, and which files are its tests. */
interface RepoRunner {
  /** The reproducer's runner form (one of `matchRunner`'s), PATH = the file. */
  reproduce: string;
  /** The `validate` command for the touched test files (`FILES`). */
  validate: string;
  /** Test files the runner runs. */
  tests: RegExp;
  /** The new path next to `path` that the runner still picks up. */
  rename: (path: string, issue: number) => string;
}
const beforeTestJs = (p: string, n: number) => p.replace(/\.test\.js$/, `.issue-${n}.test.js`);
const beforeJs = (p: string, n: number) => p.replace(/\.js$/, `.issue-${n}.js`);
const RUNNERS: Record<string, RepoRunner> = {
  // jest config: roots [test], testRegex test/(.*?/)?.*test.js$
  'iamkun/dayjs': {
    reproduce: 'npx jest PATH',
    validate: 'npx jest FILES',
    tests: /^test\/.*test\.js$/,
    rename: beforeTestJs,
  },
  // jest defaults: tests/*.test.js
  'anuraghazra/github-readme-stats': {
    reproduce: 'npx jest PATH',
    validate: 'npx jest FILES',
    tests: /^tests\/.*\.test\.js$/,
    rename: beforeTestJs,
  },
  // npm test: mocha --require test/support/env --reporter spec --bail --check-leaks test/ …
  'expressjs/express': {
    reproduce: 'npx mocha PATH',
    validate: 'npx mocha --require test/support/env --check-leaks FILES',
    tests: /^test\/(?!support\/)[^/]+\.js$|^test\/acceptance\/.*\.js$/,
    rename: beforeJs,
  },
  // npm run test:mocha: mocha test/unit/**/*.js --timeout 30000 --exit
  'axios/axios': {
    reproduce: 'npx mocha PATH',
    validate: 'npx mocha --timeout 30000 --exit FILES',
    tests: /^test\/unit\/.*\.js$/,
    rename: beforeJs,
  },
};

interface Instance {
  id: string;
  repo: string;
  pr: number;
  issues: number[];
  base: string;
  issue: string;
  source: string;
}
interface Patches {
  fix_patch: string;
  test_patch: string;
}
interface FileDiff {
  path: string;
  oldPath: string;
  created: boolean;
  deleted: boolean;
  text: string;
}

/** The file sections of a `git diff` text. */
function fileDiffs(patch: string): FileDiff[] {
  return patch
    .split(/^(?=diff --git )/m)
    .filter((s) => s.startsWith('diff --git '))
    .map((text) => {
      const m = /^diff --git a\/(\S+) b\/(\S+)/.exec(text)!;
      return {
        oldPath: m[1]!,
        path: m[2]!,
        created: /^new file mode/m.test(text),
        deleted: /^deleted file mode/m.test(text),
        text: text.endsWith('\n') ? text : `${text}\n`,
      };
    });
}

const TEST_PATH = /(^|\/)(tests?|__tests__|spec|specs)\/|\.(test|spec)\.[cm]?[jt]sx?$/;

const git = (args: string[], input?: string | Buffer): string =>
  execFileSync('git', args, {
    encoding: 'utf8',
    input,
    maxBuffer: 2 ** 30,
    stdio: ['pipe', 'pipe', 'pipe'],
  });

/**
 * A fresh repository (branch `main`, one commit) holding the files of `commit` of the snapshot,
 * written with `cat-file --batch` as bench/context.ts does (snapshots may lack very large blobs).
 */
function materialise(repo: string, commit: string, dir: string): void {
  const mirror = join(MIRRORS, repo.replace('/', '+'), 'repo');
  if (!existsSync(mirror)) throw new Error(`no snapshot of ${repo} at ${mirror}`);
  writeTree(mirror, commit, dir);
}

interface Replay {
  config: string;
  triage: unknown;
  plan: unknown;
  reproduction: { path: string; content: string; command: string; test_name: string };
  diff: string;
  /** Per file: the code agent is asked about one planned file at a time. */
  diffs: Map<string, string>;
  from: string;
  validateFiles: string[];
}

/** The repository at the base, committed, and the scripted answers replaying the upstream fix. */
function prepare(instance: Instance, patches: Patches, dir: string): Replay {
  const runner = RUNNERS[instance.repo]!;
  const issueNo = instance.issues[0] ?? instance.pr;
  materialise(instance.repo, instance.base, dir);
  const lock = existsSync(join(dir, 'package-lock.json'));
  const tests = fileDiffs(patches.test_patch).filter(
    (f) => runner.tests.test(f.path) && !f.deleted,
  );
  const first = tests[0];
  if (!first) throw new Error(`test_patch has no test file the runner runs (${runner.tests})`);
  // validate: the runner on the touched test files that exist at the base.
  const validateFiles = tests.filter((f) => !f.created).map((f) => f.path);
  const validate = runner.validate.replace(
    'FILES',
    validateFiles.length > 0 ? validateFiles.join(' ') : dirname(first.path),
  );
  const config = [
    'setup:',
    `  - ${lock ? 'npm ci' : 'npm install --no-audit --no-fund'}`,
    'validate:',
    `  - ${validate}`,
    'reproduce: auto',
    'max_repair_attempts: 1',
    'command_timeout_seconds: 600',
    '',
  ].join('\n');
  mkdirSync(join(dir, '.github'), { recursive: true });
  writeFileSync(join(dir, '.github', 'autofix.yml'), config);
  git(['-C', dir, 'init', '-q', '-b', 'main']);
  git(['-C', dir, 'add', '-A', '-f']);
  git([
    '-C',
    dir,
    '-c',
    'user.name=bench',
    '-c',
    'user.email=bench@localhost.invalid',
    'commit',
    '-q',
    '--no-verify',
    '-m',
    `base ${instance.base}`,
  ]);

  // The upstream test file after test_patch: applied to the work tree, read, put back.
  const patchFile = join(dir, '..', 'test.patch');
  writeFileSync(patchFile, patches.test_patch);
  git(['-C', dir, 'apply', `--include=${first.path}`, patchFile]);
  const content = readFileSync(join(dir, first.path), 'utf8');
  if (first.created) rmSync(join(dir, first.path));
  else git(['-C', dir, 'checkout', '--', first.path]);
  if (git(['-C', dir, 'status', '--porcelain']).trim() !== '')
    throw new Error('work tree not clean after reading the test patch');

  const path = runner.rename(first.path, issueNo);
  if (path === first.path || existsSync(join(dir, path))) throw new Error(`bad new path ${path}`);
  const fix = fileDiffs(patches.fix_patch).filter((f) => !TEST_PATH.test(f.path));
  const title = instance.issue.split('\n')[0] ?? '';
  return {
    config,
    validateFiles,
    from: first.path,
    triage: {
      risk: 'LOW',
      classification: 'fix',
      affected_files: fix.map((f) => f.path),
      summary: title.slice(0, 200),
    },
    plan: {
      branch_name: `fix/issue-${issueNo}`,
      commit_type: 'fix',
      scope: instance.repo
        .split('/')[1]!
        .toLowerCase()
        .replace(/[^a-z0-9-]/g, '-'),
      commit_subject: `fix issue ${issueNo}`,
      plan_steps: [{ id: '1', description: `Apply the fix for: ${title.slice(0, 150)}` }],
      file_changes: fix.map((f) => ({
        path: f.deleted ? f.oldPath : f.path,
        operation: f.created ? 'CREATE' : f.deleted ? 'DELETE' : 'MODIFY',
      })),
      validation_commands: [validate],
    },
    reproduction: {
      path,
      content,
      command: runner.reproduce.replace('PATH', path),
      test_name: `upstream test of ${instance.repo}#${instance.pr} (${first.path})`,
    },
    diff: '```diff\n' + fix.map((f) => f.text).join('') + '```\n',
    diffs: new Map(
      fix.map((f) => [f.deleted ? f.oldPath : f.path, '```diff\n' + f.text + '```\n']),
    ),
  };
}

interface Row {
  id: string;
  outcome: string;
  reproduction: string;
  reason?: string;
  /** A "reproduced" whose base failure is not a test's (npx fetching its runner, a setup error). */
  bogus?: string;
  prEvidence: boolean;
  stageMs?: number;
  runMs: number;
  failure?: string;
  infra?: string;
  asks: Record<string, number>;
  from?: string;
  path?: string;
  validation?: { command: string; exit_code: number | null; duration_ms: number }[];
}

/** Output of a runner that never ran a test: npx fetching it (no network), npm, a shell. */
const BOGUS_FAILURE = /npm (error|ERR!)|EAI_AGAIN|ENOTFOUND|command not found|not run: setup/;

const p50 = (xs: number[]): number | undefined => {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : Math.round((s[m - 1]! + s[m]!) / 2);
};

async function main(): Promise<void> {
  const benchStarted = Date.now();
  const all = readFileSync(join(ROOT, 'bench/context/instances.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Instance);
  const selected = Object.keys(RUNNERS).flatMap((repo) =>
    all
      .filter((i) => i.repo === repo)
      .sort((a, b) => a.pr - b.pr)
      .slice(0, PER_REPO),
  );
  const instances = selected.filter((i) => !ONLY || i.id.includes(ONLY));
  const patchesBySource = new Map<string, Map<string, Patches>>();
  const patchesOf = (i: Instance): Patches => {
    let m = patchesBySource.get(i.source);
    if (!m) {
      m = new Map();
      for (const line of git(['-C', DATASET, 'show', `HEAD:${i.source}`]).split('\n')) {
        if (!line.trim()) continue;
        const d = JSON.parse(line) as Patches & { instance_id: string };
        m.set(d.instance_id, { fix_patch: d.fix_patch, test_patch: d.test_patch });
      }
      patchesBySource.set(i.source, m);
    }
    const p = m.get(i.id);
    if (!p) throw new Error(`${i.id} not in ${i.source}`);
    return p;
  };

  let current: Replay | undefined;
  const llm = await startScriptedLlmServer({
    respond: (req): StaticReply | undefined => {
      const agent = agentOf(req);
      if (!current || !agent) return { status: 400, body: { error: { message: 'no agent' } } };
      const answers: Record<string, string> = {
        triage: JSON.stringify(current.triage),
        planner: JSON.stringify(current.plan),
        reproducer: JSON.stringify(current.reproduction),
        'code-agent': current.diff,
        'code-fixer': current.diff,
        'pr-generator': JSON.stringify({
          summary: 'Replays the upstream fix of this issue (bench:reproduce).',
        }),
      };
      if (agent === 'code-agent') {
        // "## The file to change\n\nPath: `X`": the upstream diff of that file only.
        const text = req.body.messages.map((m) => m.content).join('\n');
        const file = /## The file to change\s+Path: `([^`]+)`/.exec(text)?.[1];
        const one = file === undefined ? undefined : current.diffs.get(file);
        if (one) return { content: one, model: 'bench-replay' };
      }
      return { content: answers[agent]!, model: 'bench-replay' };
    },
  });
  const apiKey = 'sk-bench-reproduce-0123456789abcdef';
  const workdir = mkdtempSync(join(tmpdir(), 'autofix-bench-reproduce-'));
  const settings = readSettings({
    OPENAI_BASE_URL: llm.baseUrl,
    OPENAI_API_KEY: apiKey,
    AUTOFIX_WORKDIR: join(workdir, 'autofix'),
    AUTOFIX_MODEL: 'bench-replay',
  });
  const log = createLogger({ level: 'silent' });
  console.log(
    `bench:reproduce — ${instances.length} replays (${PER_REPO} per repository), workdir ${workdir}`,
  );

  const rows: Row[] = [];
  for (const instance of instances) {
    const started = Date.now();
    const dir = join(mkdtempSync(join(workdir, 'repo-')), instance.id);
    mkdirSync(dir);
    const seen = llm.chatRequests().length;
    const row: Row = {
      id: instance.id,
      outcome: 'error',
      reproduction: '-',
      prEvidence: false,
      runMs: 0,
      asks: {},
    };
    let replay: Replay | undefined;
    try {
      replay = prepare(instance, patchesOf(instance), dir);
      current = replay;
      row.from = replay.from;
      row.path = replay.reproduction.path;
    } catch (err) {
      row.outcome = 'bench-error';
      row.infra = `replay not built: ${(err as Error).message.split('\n')[0]}`;
    }
    if (replay) {
      const runStarted = Date.now();
      let report: LocalRunReport | undefined;
      try {
        report = await runLocal(
          { repo: dir, issueText: instance.issue, number: instance.issues[0] ?? instance.pr },
          settings,
          { log },
        );
      } catch (err) {
        row.outcome = 'error';
        row.infra = `runLocal threw: ${(err as Error).message.split('\n')[0]}`;
      }
      row.runMs = Date.now() - runStarted;
      if (report) {
        row.outcome = report.outcome;
        if (report.failure)
          row.failure = `${report.failure.stage} ${report.failure.code}: ${report.failure.message.split('\n')[0]!.slice(0, 160)}`;
        const r = report.result?.reproduction;
        if (r) {
          row.reproduction = r.status;
          if (r.status !== 'reproduced') row.reason = r.reason;
          row.stageMs = r.duration_ms;
          if (r.status === 'reproduced') {
            const line = r.base_failure.split('\n').find((l) => BOGUS_FAILURE.test(l));
            if (line) row.bogus = `base failure is not a test's: ${line.trim().slice(0, 160)}`;
          }
        }
        if (report.prFile && existsSync(report.prFile)) {
          const pr = readFileSync(report.prFile, 'utf8');
          row.prEvidence =
            pr.includes('### Reproduction') &&
            pr.includes('fails on the base commit') &&
            pr.includes('passes with the fix');
        }
        row.validation = report.result?.code?.validation.map((v) => ({
          command: v.command,
          exit_code: v.exit_code,
          duration_ms: v.duration_ms,
        }));
        try {
          const summary = JSON.parse(
            readFileSync(join(report.artifactsDir, 'summary.json'), 'utf8'),
          ) as { stages: { stage: string; status: string; at_ms: number }[] };
          if (row.stageMs === undefined) {
            const at = (status: string) =>
              summary.stages.find((s) => s.stage === 'reproduce' && s.status === status)?.at_ms;
            const a = at('start');
            const b = at('done');
            if (a !== undefined && b !== undefined) row.stageMs = b - a;
          }
        } catch {
          // no summary: the table says what the report said
        }
        // Infrastructure: installing failed (on the base, or with the fix's package.json), or the
        // sandbox; not a verdict on the reproduction.
        const f = report.failure;
        if (
          f &&
          (/SETUP|SANDBOX/.test(f.code) || /^`npm (ci|install)[^`]*` failed|bwrap/.test(f.message))
        )
          row.infra = row.failure;
      }
    }
    for (const q of llm.chatRequests().slice(seen)) {
      const a = agentOf(q) ?? 'unknown';
      row.asks[a] = (row.asks[a] ?? 0) + 1;
    }
    current = undefined;
    rows.push(row);
    const s = (ms?: number) => (ms === undefined ? '-' : `${(ms / 1000).toFixed(1)}s`);
    console.log(
      `${row.id.padEnd(38)} ${row.outcome.padEnd(8)} ${row.reproduction.padEnd(15)} pr_evidence=${row.prEvidence ? 'yes' : 'no '} stage=${s(row.stageMs).padStart(7)} run=${s(row.runMs).padStart(7)} total=${s(Date.now() - started)}` +
        (row.bogus ? `\n    FALSE REPRODUCTION: ${row.bogus}` : '') +
        (row.reason ? `\n    reason: ${row.reason.split('\n')[0]!.slice(0, 300)}` : '') +
        (row.failure ? `\n    failure: ${row.failure}` : '') +
        (row.infra ? `\n    infra: ${row.infra}` : ''),
    );
    if (!KEEP) rmSync(dirname(dir), { recursive: true, force: true });
  }
  await llm.close();

  console.log(
    '\n| instance | upstream test → new path | outcome | reproduction | PR fail→pass | reproduce s | run s | note |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const note = [
      r.bogus ? `FALSE REPRODUCTION: ${r.bogus}` : '',
      r.reason ?? '',
      r.infra ? `INFRA: ${r.infra}` : (r.failure ?? ''),
    ]
      .filter(Boolean)
      .join('; ')
      .replace(/\|/g, '\\|')
      .replace(/\s+/g, ' ')
      .slice(0, 220);
    console.log(
      `| ${r.id} | ${r.from ?? '-'} → ${r.path ?? '-'} | ${r.outcome} | ${r.reproduction} | ${r.prEvidence ? 'yes' : 'no'} | ${r.stageMs === undefined ? '-' : (r.stageMs / 1000).toFixed(1)} | ${(r.runMs / 1000).toFixed(1)} | ${note} |`,
    );
  }
  if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify(rows, null, 2));
  if (!KEEP) rmSync(workdir, { recursive: true, force: true });
  const reproduced = rows.filter((r) => r.reproduction === 'reproduced').length;
  const evidence = rows.filter((r) => r.prEvidence).length;
  const stage = p50(rows.flatMap((r) => (r.stageMs === undefined ? [] : [r.stageMs])));
  const run = p50(rows.filter((r) => r.runMs > 0).map((r) => r.runMs));
  console.log(`\nbench wall time ${((Date.now() - benchStarted) / 1000).toFixed(0)} s`);
  console.log(
    `SUMMARY reproduce runs=${rows.length} reproduced=${reproduced} share=${rows.length ? (reproduced / rows.length).toFixed(2) : '0'} pr_evidence=${evidence} stage_ms_p50=${stage ?? '-'} run_ms_p50=${run ?? '-'} false_reproductions=${rows.filter((r) => r.bogus).length} infra_failures=${rows.filter((r) => r.infra).length}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
