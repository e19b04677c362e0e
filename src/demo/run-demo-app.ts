/**
 * `autofix demo --app`: the GitHub App end to end on one machine. `autofix serve` runs in this
 * process (startAutofix with the real stage workers) against Redis and the bundled fake GitHub on
 * 127.0.0.1, with an App key and webhook secret generated for this run. A signed `issues.labeled`
 * delivery for the sample issue starts the run; the status comment is printed each time the app
 * edits it, then the pull request it opened. The repository's clone URL is a local bare copy of
 * the sample, so git never leaves the machine either. Everything is stopped and its Redis keys
 * deleted at the end.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { FakeComment, FakeGitHub } from '../../fakes/github/index.js';
import { runGit } from '../git/run-git.js';
import { checkRedis, displayRedisUrl } from '../scheduler/check-redis.js';
import { deleteKeys } from '../scheduler/delete-keys.js';
import type { AutofixServer } from '../hosts/app/start-autofix.js';
import { AutofixError } from '../errors.js';
import { setUpDemo, shellQuote, type DemoOptions, type DemoSetup } from './demo-setup.js';
import { labelDemoIssue } from './label-demo-issue.js';
import { printPull, statusPrinter, type Say } from './print-demo-app.js';
import { DEMO_ISSUE, DEMO_ISSUE_NUMBER, DEMO_OWNER, DEMO_REPO_NAME } from './sample.js';
import {
  demoAppKeys,
  startDemoAutofix,
  startDemoGitHub,
  type DemoApp,
  type DemoAppKeys,
} from './start-demo-app.js';

const RUN_TIMEOUT_MS = 180_000;
/** A failure adds its comment and label after the status: the moment given to them. */
const AFTER_FINAL_MS = 300;
const POLL_MS = 50;

export interface DemoAppResult {
  ok: boolean;
  /** Every body the status comment had, in order. */
  statusEdits: string[];
  pull?: { title: string; body: string; head: string; base: string; draft: boolean };
}

/** What one run of the demo holds; `github` and `app` once started. */
interface DemoRun {
  say: Say;
  started: number;
  demo: DemoSetup;
  bare: string;
  prefix: string;
  redisUrl: string;
  keys: DemoAppKeys;
  github?: FakeGitHub;
  app?: AutofixServer;
}

function redisHelp(url: string): string {
  return (
    `autofix demo --app needs Redis at ${displayRedisUrl(url)} (REDIS_URL). Start one:\n` +
    '  sudo apt-get install -y redis-server && sudo service redis-server start   # Debian/Ubuntu\n' +
    '  docker run -d --name autofix-redis -p 127.0.0.1:6379:6379 redis:7           # or Docker\n' +
    '  npm run up                                                                   # or the one-command setup\n' +
    'or set REDIS_URL to a reachable server. `autofix demo` (without --app) needs no Redis.'
  );
}

async function requireRedis(url: string): Promise<void> {
  try {
    await checkRedis(url);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new AutofixError('CONFIG_INVALID', `${reason}\n${redisHelp(url)}`);
  }
}

function printSetUp(run: DemoRun, github: FakeGitHub, { app, sandbox }: DemoApp): void {
  const { say } = run;
  say('autofix demo --app: the GitHub App on this machine, with a scripted model.');
  say(
    `  autofix serve  ${app.url} (in this process; queues on ${displayRedisUrl(run.redisUrl)}, prefix ${run.prefix})`,
  );
  say(
    `  GitHub         ${github.apiUrl} (the bundled fake GitHub; App key and webhook secret made for this run)`,
  );
  say(`  repository     ${DEMO_OWNER}/${DEMO_REPO_NAME}, cloned from ${run.bare}`);
  say(`  model          scripted, ${run.demo.llm.baseUrl}`);
  say(`  sandbox        ${sandbox.mode === 'none' ? 'none (--sandbox none)' : 'bubblewrap'}`);
  say();
}

/** Prints the status comment's versions until the run's last one; that comment. */
async function followStatus(run: DemoRun, github: FakeGitHub, edits: string[]) {
  const printNew = statusPrinter(run.say, github, run.started, edits);
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  let final: FakeComment | undefined;
  while (!final) {
    if (Date.now() > deadline)
      throw new AutofixError('INTERNAL', `the run did not end within ${RUN_TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, POLL_MS));
    final = printNew();
  }
  await new Promise((r) => setTimeout(r, AFTER_FINAL_MS));
  printNew();
  return final;
}

/** Starts the fake GitHub and the app, labels the issue and follows the run to its end. */
async function demonstrate(run: DemoRun): Promise<DemoAppResult> {
  const { say } = run;
  await runGit(['clone', '--quiet', '--bare', run.demo.repo, run.bare], { cwd: run.demo.root });
  const github = (run.github = await startDemoGitHub(run.keys));
  const started = await startDemoAutofix({ ...run, github });
  run.app = started.app;
  printSetUp(run, github, started);
  say(`→ A maintainer labels issue #${DEMO_ISSUE_NUMBER} "autofix": "${DEMO_ISSUE.title}"`);
  const status = await labelDemoIssue(
    github,
    { url: started.app.url, secret: run.keys.secret },
    run.bare,
  );
  say(`  signed issues.labeled webhook → ${status}`);
  if (status < 200 || status >= 300)
    throw new AutofixError('INTERNAL', `the app answered the webhook with ${status}`);
  const result: DemoAppResult = { ok: false, statusEdits: [] };
  const final = await followStatus(run, github, result.statusEdits);
  const pull = github.pulls[0];
  say();
  if (pull) {
    const { title, body, head, base, draft } = pull;
    result.pull = { title, body, head, base, draft };
    await printPull(say, pull, github, { bare: run.bare, root: run.demo.root });
    result.ok = /^### 🚀 /m.test(final.body);
  } else {
    say('No pull request was opened: the status comment above says why.');
  }
  return result;
}

function printEnd(run: DemoRun): void {
  const { say, bare } = run;
  say();
  say(
    `Requests to the fake GitHub: ${run.github?.requests.length ?? 0}; to the scripted model: ${run.demo.llm.chatRequests().length}.`,
  );
  say(`The pushed branch stays in ${bare} (the sample's "GitHub" remote).`);
  say(`  git --git-dir ${shellQuote(bare)} log --oneline --all`);
  say(`  rm -rf ${shellQuote(run.demo.root)}   # when done`);
}

export async function runDemoApp(
  options: DemoOptions & { redisUrl: string },
  out: NodeJS.WritableStream,
): Promise<DemoAppResult> {
  const started = Date.now();
  const say: Say = (text = '') => void out.write(`${text}\n`);
  await requireRedis(options.redisUrl);
  const demo = await setUpDemo(options);
  const run: DemoRun = {
    say,
    started,
    demo,
    bare: join(demo.root, `${DEMO_REPO_NAME}.git`),
    prefix: `autofix-demo-${randomUUID().slice(0, 8)}`,
    redisUrl: options.redisUrl,
    keys: demoAppKeys(),
  };
  try {
    const result = await demonstrate(run);
    printEnd(run);
    return result;
  } finally {
    await run.app?.stop(5000).catch(() => undefined);
    await run.github?.close().catch(() => undefined);
    await deleteKeys(options.redisUrl, run.prefix).catch(() => undefined);
    await demo.cleanup();
    say(
      `Stopped the app, the fake GitHub and the model; deleted the Redis keys ${run.prefix}:*. Demo took ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  }
}
