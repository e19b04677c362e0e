/**
 * Issue 13: a real `autofix worker` process SIGKILLed at each stage boundary — before and after
 * the code stage's kept commit lands, before and after the last stage publishes it to the branch,
 * before and after GitHub creates the PR, before and after the final status
 * edit — and a new worker started: every run ends in exactly one PR, one status comment (its
 * outcome 🚀), no failure comment, no branch on the remote but the PR's, and no worktree or job
 * folder left behind. The kill comes from the other side of the boundary (a hook in the bare
 * remote, the fake GitHub), so the worker is caught exactly there.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedactor } from '../../../src/artifacts/redact.js';
import { createLogger } from '../../../src/logger.js';
import { createMetrics } from '../../../src/scheduler/metrics.js';
import { startAutofix, type AutofixServer } from '../../../src/hosts/app/start-autofix.js';
import { startCli } from '../../helpers/cli.js';
import { startFakeGitHub, type FakeGitHub } from '../../helpers/fake-github.js';
import { startFakeLlmServer, type FakeLlmServer } from '../../helpers/fake-llm-server.js';
import { testOctokit } from '../../helpers/github-client.js';
import {
  createSampleRepo,
  FIX_DIFF,
  PLAN,
  PR_SUMMARY,
  TRIAGE,
  type SampleRepo,
} from '../../helpers/sample-repo.js';
import { deliver, generateAppKeyPair, labeledPayload } from '../../helpers/webhooks.js';
import { underLoad } from '../../helpers/deadlines.js';
import { appIdle, deleteKeys, REDIS_URL, SECRET, waitFor } from './harness.js';

const API_KEY = 'sk-kill-boundaries-0123456789abcdef';
const keys = generateAppKeyPair();
const BRANCH = 'autofix/fix/9-add-returns-the-wrong-result';

/** Answers any stage's request, in any order and as often as asked (retries included). */
function answer(req: { body: { messages: { role: string; content: string }[] } }): string {
  const system = req.body.messages[0]?.content ?? '';
  if (system.includes('the triage agent')) return JSON.stringify(TRIAGE);
  if (system.includes('the planner agent')) return JSON.stringify(PLAN);
  if (system.includes('the code agent')) return FIX_DIFF;
  if (system.includes('pull-request writer')) return JSON.stringify(PR_SUMMARY);
  throw new Error(`unexpected prompt: ${system.slice(0, 80)}`);
}

interface World {
  github: FakeGitHub;
  llm: FakeLlmServer;
  app: AutofixServer;
  sample: SampleRepo;
  bare: string;
  workdir: string;
  prefix: string;
  killFile: string;
  workers: ChildProcess[];
  /** `armed`: its pid goes to `killFile`, for the remote's hook. */
  startWorker(armed: boolean): { child: ChildProcess; output: () => string };
}

async function setUp(): Promise<World> {
  const github = await startFakeGitHub({ appPublicKey: keys.publicKey });
  github.setPermission('maintainer', 'write');
  github.setFile('.github/autofix.yml', 'reproduce: off\nvalidate:\n  - node test.js\n');
  const llm = await startFakeLlmServer({ apiKey: API_KEY });
  for (let i = 0; i < 40; i++) llm.enqueue(answer);
  const sample = createSampleRepo();
  const bare = sample.bare().dir;
  const workdir = mkdtempSync(join(tmpdir(), 'autofix-kill-'));
  const prefix = `autofix-kill-${randomUUID().slice(0, 8)}`;
  const killFile = join(workdir, 'kill-pid');
  const app = await startAutofix({
    github: {
      appId: '1',
      privateKey: keys.privateKey,
      webhookSecret: SECRET,
      apiUrl: github.apiUrl,
      Octokit: testOctokit(),
    },
    redisUrl: REDIS_URL,
    prefix,
    host: '127.0.0.1',
    port: 0,
    log: createLogger({ level: process.env.TEST_LOG ?? 'silent' }),
    redact: createRedactor([SECRET, API_KEY]),
    metrics: createMetrics(),
    reconcileIntervalMs: 0,
  });
  const workers: ChildProcess[] = [];
  // The lock of a killed worker's job lapses after 5 s; shorter locks can lapse under a loaded
  // machine while the worker still runs (a second, concurrent attempt).
  const startWorker = (armed: boolean) => {
    const worker = startCli(['worker', '--queue-prefix', prefix, '--stalled-after', '5'], {
      env: {
        APP_ID: '1',
        PRIVATE_KEY: keys.privateKey,
        ...github.env,
        REDIS_URL,
        OPENAI_BASE_URL: llm.baseUrl,
        OPENAI_API_KEY: API_KEY,
        AUTOFIX_WORKDIR: workdir,
        AUTOFIX_MODEL: 'scripted',
        LOG_LEVEL: process.env.TEST_LOG ?? 'warn',
      },
    });
    workers.push(worker.child);
    if (armed) writeFileSync(killFile, String(worker.child.pid));
    return worker;
  };
  return { github, llm, app, sample, bare, workdir, prefix, killFile, workers, startWorker };
}

async function tearDown(w: World | undefined): Promise<void> {
  if (!w) return;
  for (const child of w.workers) child.kill('SIGKILL');
  await w.app.stop(5000).catch(() => undefined);
  await w.github.close();
  await w.llm.close();
  await deleteKeys(REDIS_URL, w.prefix);
  w.sample.cleanup();
  rmSync(w.workdir, { recursive: true, force: true });
}

/**
 * A hook in the bare remote that SIGKILLs the worker once (the pid in `killFile`), on the first
 * push that updates a ref under `refs`: the code stage's keep (`refs/autofix/`) or the last
 * stage's publish (`refs/heads/autofix/`).
 */
function gitHook(w: World, name: 'pre-receive' | 'post-receive', refs: string): void {
  const path = join(w.bare, 'hooks', name);
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      `f='${w.killFile}'`,
      `if [ -f "$f" ] && grep -q ' ${refs}'; then pid=$(cat "$f"); rm -f "$f"; kill -9 "$pid";`,
      // Before: the push must not land (the worker died before it could know it had).
      name === 'pre-receive' ? '  exit 1; fi' : 'fi',
      'exit 0',
      '',
    ].join('\n'),
  );
  chmodSync(path, 0o755);
}

/** SIGKILLs the worker now (from inside the fake GitHub) and waits until it is gone. */
function killWorker(w: World): () => Promise<void> {
  return async () => {
    const child = w.workers.at(-1)!;
    if (existsSync(w.killFile)) rmSync(w.killFile);
    child.kill('SIGKILL');
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise((r) => child.once('exit', r));
    }
  };
}

type Boundary = (w: World) => void;

/** The boundary, how it is armed, and how often the code agent is asked in all. */
const boundaries: [string, Boundary, number][] = [
  // The keep never landed: the retry writes the change again, from the answer the run's call
  // journal kept (the model is not asked twice).
  ['before the kept commit lands', (w) => gitHook(w, 'pre-receive', 'refs/autofix/'), 1],
  // The keep landed: the retry finds its own kept commit and goes on from it, asking nothing.
  ['after the kept commit landed', (w) => gitHook(w, 'post-receive', 'refs/autofix/'), 1],
  // The publish never landed: the last stage publishes again.
  ['before the publish lands', (w) => gitHook(w, 'pre-receive', 'refs/heads/autofix/'), 1],
  // The publish landed: the retry finds the branch at the kept commit and only opens the PR.
  ['after the publish landed', (w) => gitHook(w, 'post-receive', 'refs/heads/autofix/'), 1],
  [
    'before GitHub creates the PR',
    (w) => w.github.interceptNext('POST', /\/pulls$/, 'before', killWorker(w)),
    1,
  ],
  [
    'after GitHub created the PR',
    (w) => w.github.interceptNext('POST', /\/pulls$/, 'after', killWorker(w)),
    1,
  ],
  [
    'before the final status edit',
    (w) =>
      // Armed once the PR exists: the next edit of the status comment is the run's last.
      w.github.interceptNext('POST', /\/pulls$/, 'after', () =>
        w.github.interceptNext('PATCH', /\/issues\/comments\/\d+$/, 'before', killWorker(w)),
      ),
    1,
  ],
  [
    'after the final status edit',
    (w) =>
      w.github.interceptNext('POST', /\/pulls$/, 'after', () =>
        w.github.interceptNext('PATCH', /\/issues\/comments\/\d+$/, 'after', killWorker(w)),
      ),
    1,
  ],
];

describe('a worker SIGKILLed at a stage boundary, then a new worker', () => {
  let w: World | undefined;
  afterEach(async () => {
    await tearDown(w);
    w = undefined;
  });

  it.each(boundaries)(
    '%s: one PR, one status comment, no failure, clean remote and workdir',
    async (_, arm, codeAsks) => {
      w = await setUp();
      const world = w;
      arm(world);
      const first = world.startWorker(true);
      const res = await deliver(world.app.url, {
        event: 'issues',
        payload: labeledPayload({
          issueNumber: 9,
          title: 'add() returns the wrong result',
          body: 'add(2, 3) is -1',
          cloneUrl: world.bare,
        }),
        secret: SECRET,
      });
      expect(res.status).toBe(200);
      await waitFor(
        () => first.child.exitCode !== null || first.child.signalCode !== null || undefined,
        underLoad(30_000),
        `the kill (worker output: ${first.output().slice(-2000)})`,
      );
      expect(first.child.signalCode).toBe('SIGKILL');
      const second = world.startWorker(false);

      const done = await waitFor(
        () => [...world.github.comments.values()].find((c) => c.body.includes('🚀')),
        underLoad(30_000),
        `the run's end (worker output: ${second.output().slice(-2000)})`,
      );
      // Nothing more happens once the run has ended: every job done (the killed worker's too,
      // taken back as stalled), the issue released; only then is "one PR" meaningful.
      await appIdle(world.prefix);
      expect(world.github.pulls).toHaveLength(1);
      expect(world.github.pulls[0]).toMatchObject({ head: BRANCH, state: 'open' });
      const comments = [...world.github.comments.values()];
      // The body of an unexpected failure says what went wrong.
      const failures = comments.filter((c) => c.body.includes('Autofix failed'));
      expect(failures.map((c) => c.body)).toEqual([]);
      expect(comments.filter((c) => /^<!-- autofix-run:[^:]+ -->/.test(c.body))).toHaveLength(1);
      expect(done.body).toContain('🚀');
      const asks = world.llm
        .chatRequests()
        .filter((r) => r.body.messages[0]?.content.includes('You are the code agent'));
      expect(asks).toHaveLength(codeAsks);
      const heads = execFileSync(
        'git',
        ['--git-dir', world.bare, 'for-each-ref', '--format=%(refname)', 'refs/heads/'],
        {
          encoding: 'utf8',
        },
      )
        .trim()
        .split('\n');
      expect(heads.sort()).toEqual([`refs/heads/${BRANCH}`, 'refs/heads/main']);
      const log = execFileSync(
        'git',
        ['--git-dir', world.bare, 'log', '--format=%s', `main..${BRANCH}`],
        {
          encoding: 'utf8',
        },
      );
      expect(log.trim().split('\n')).toHaveLength(1);
      // The run's private ref went with the publish.
      expect(
        execFileSync('git', ['--git-dir', world.bare, 'for-each-ref', 'refs/autofix/'], {
          encoding: 'utf8',
        }),
      ).toBe('');

      // No job folder and no worktree of a job left (the recycled worktrees wait in pool/),
      // once the last stage's workspace, closed in the background, is closed.
      const jobs = join(world.workdir, 'jobs');
      await waitFor(
        () => (existsSync(jobs) ? readdirSync(jobs) : []).length === 0 || undefined,
        underLoad(30_000),
        'no job folder left',
      );
      const mirror = join(world.workdir, 'mirrors', 'Codertocat', 'Hello-World.git');
      const list = execFileSync('git', ['--git-dir', mirror, 'worktree', 'list', '--porcelain'], {
        encoding: 'utf8',
      });
      const worktrees = list
        .split('\n')
        .filter((l) => l.startsWith('worktree '))
        .map((l) => l.slice('worktree '.length))
        .filter((p) => p !== mirror);
      expect(worktrees.filter((p) => !p.startsWith(join(world.workdir, 'pool')))).toEqual([]);
    },
    underLoad(90_000),
  );
});
