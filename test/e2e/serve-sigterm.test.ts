/**
 * SIGTERM to a real `autofix serve` while the repository's validation command runs: the compiled
 * CLI as a child process, real Redis (own key prefix), a real git repository behind a local bare
 * clone, a real validation script with a grandchild, the fake GitHub and the scripted LLM server
 * over HTTP. Proves that shutdown leaves no process of the command behind, nothing on the remote,
 * no failure report, and the code job back in the queue with its attempt unused; then that a
 * restarted process picks the job up and opens the pull request.
 *
 * Processes are found by a token on their command line, not by pids the script reports: under
 * bwrap the script runs in its own PID namespace, where `process.pid` means nothing on the host.
 */
import { STAGES } from '../../src/contracts.js';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { freePort, startCli } from '../helpers/cli.js';
import { startFakeGitHub, type FakeGitHub } from '../helpers/fake-github.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import {
  createSampleRepo,
  FIX_DIFF,
  PLAN,
  PR_SUMMARY,
  TRIAGE,
  type SampleRepo,
} from '../helpers/sample-repo.js';
import { bareRemote } from '../helpers/repo-builder.js';
import { deliver, generateAppKeyPair, labeledPayload } from '../helpers/webhooks.js';
import { deleteKeys, REDIS_URL, waitFor } from '../integration/app/harness.js';
import { underLoad } from '../helpers/deadlines.js';

const API_KEY = 'sk-sigterm-e2e-key-0123456789abcdXY';
const SECRET = 'sigterm-e2e-secret';
const TITLE = 'add() returns the wrong result';
const keys = generateAppKeyPair();

/**
 * The slow validation step. With SLOW_TEST_BLOCK=1 (passed through by the repository config) it
 * starts a grandchild that ignores SIGTERM and holds the output pipes, then waits forever: only
 * ending the whole process group (SIGTERM, then SIGKILL) gets rid of both. Without it, it passes
 * at once and `node test.js` decides.
 */
const SLOW_TEST = `import { spawn } from 'node:child_process';
const token = process.argv[2];
if (process.env.SLOW_TEST_BLOCK !== '1') {
  console.log('slow test: not blocked');
  process.exit(0);
}
spawn(
  process.execPath,
  ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);", token],
  { stdio: 'inherit' },
);
console.log('slow test: blocked');
setInterval(() => {}, 1000);
`;

interface Proc {
  pid: number;
  ppid: number;
  pgrp: number;
  argv: string[];
}

/** Live (non-zombie) processes whose command line contains `token`, from /proc. */
function processesWith(token: string): Proc[] {
  const found: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (!argv.includes(token)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z' || fields[0] === 'X') continue;
      found.push({ pid: Number(name), ppid: Number(fields[1]), pgrp: Number(fields[2]), argv });
    } catch {
      // exited while we looked
    }
  }
  return found;
}

/** Whether a pid is a live (non-zombie) process. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** The `--shutdown-deadline` under test (20 s), then the process's own exit (a hang guard). */
const EXIT_MS = 20_000 + underLoad(5_000);

function exited(child: ChildProcess, timeoutMs: number): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`autofix serve did not exit within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

describe('SIGTERM to autofix serve while validation runs', () => {
  let github: FakeGitHub | undefined;
  let llm: FakeLlmServer | undefined;
  let sample: SampleRepo | undefined;
  let workdir: string | undefined;
  let prefix: string | undefined;
  let token: string | undefined;
  const children: ChildProcess[] = [];
  const queues: Queue[] = [];

  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    // Only if the product failed to: the validation processes this test started.
    if (token) {
      for (const p of processesWith(token)) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    await Promise.all(queues.splice(0).map((q) => q.close()));
    await github?.close();
    await llm?.close();
    if (prefix) await deleteKeys(REDIS_URL, prefix);
    sample?.cleanup();
    if (workdir) rmSync(workdir, { recursive: true, force: true });
    github = llm = sample = workdir = prefix = token = undefined;
  });

  it.each([
    ['none', 31],
    ['bwrap', 32],
  ] as const)(
    'sandbox: %s — no orphans, nothing pushed, job requeued, then finished by a restarted serve',
    async (sandbox, issueNumber) => {
      token = `autofix-sigterm-${randomUUID().slice(0, 8)}`;
      const config =
        `reproduce: off\nvalidate:\n  - node slow-test.js ${token}\n  - node test.js\n` +
        'env_passthrough: [SLOW_TEST_BLOCK]\n';
      github = await startFakeGitHub({ appPublicKey: keys.publicKey });
      github.setPermission('maintainer', 'write');
      github.setFile('.github/autofix.yml', config);
      llm = await startFakeLlmServer({ apiKey: API_KEY });
      sample = createSampleRepo({ config, files: { 'slow-test.js': SLOW_TEST } });
      const bare = sample.bare().dir;
      const remote = bareRemote(bare).git;
      const mainBefore = remote('rev-parse', 'refs/heads/main');
      workdir = mkdtempSync(join(tmpdir(), 'autofix-sigterm-'));
      prefix = `autofix-sigterm-${randomUUID().slice(0, 8)}`;
      const runPrefix = prefix;
      const inspect = (stage: string): Queue => {
        const q = new Queue(stage, { connection: { url: REDIS_URL }, prefix: runPrefix });
        queues.push(q);
        return q;
      };

      const serve = async (extraEnv: Record<string, string>) => {
        const port = await freePort();
        const cli = startCli(['serve', '--queue-prefix', runPrefix, '--shutdown-deadline', '20'], {
          cwd: sample!.root, // no .env there
          env: {
            APP_ID: '1',
            PRIVATE_KEY: keys.privateKey,
            WEBHOOK_SECRET: SECRET,
            ...github!.env,
            HOST: '127.0.0.1',
            PORT: String(port),
            REDIS_URL,
            LOG_LEVEL: 'info',
            OPENAI_BASE_URL: llm!.baseUrl,
            OPENAI_API_KEY: API_KEY,
            AUTOFIX_MODEL: 'scripted',
            AUTOFIX_WORKDIR: workdir!,
            // The operator's choice: `none` only through the worker's environment.
            AUTOFIX_SANDBOX: sandbox,
            ...extraEnv,
          },
        });
        children.push(cli.child);
        const url = `http://127.0.0.1:${port}`;
        await waitFor(
          async () => (await fetch(`${url}/healthz`).catch(() => undefined))?.ok || undefined,
          underLoad(20_000),
          `serve to listen\n${cli.output()}`,
        );
        return { ...cli, url };
      };

      // 1. First process: the run reaches validation, which blocks.
      const first = await serve({ SLOW_TEST_BLOCK: '1' });
      llm.enqueue(JSON.stringify(TRIAGE), JSON.stringify(PLAN), FIX_DIFF);
      const res = await deliver(first.url, {
        event: 'issues',
        payload: labeledPayload({
          issueNumber,
          title: TITLE,
          body: 'add(2, 3) is -1',
          cloneUrl: bare,
        }),
        secret: SECRET,
      });
      expect(res.status).toBe(200);
      const running = await waitFor(
        () => {
          const procs = processesWith(token!);
          const script = procs.find((p) => p.argv.some((a) => a.endsWith('slow-test.js')));
          const grandchild = procs.find((p) => p.argv.includes('-e'));
          return script && grandchild ? procs : undefined;
        },
        underLoad(30_000),
        'the validation script and its grandchild',
      );
      expect(running.every((p) => alive(p.pid))).toBe(true);
      // One process group of their own, led by the process the worker spawned…
      const pgrps = new Set(running.map((p) => p.pgrp));
      expect(pgrps.size).toBe(1);
      const [pgrp] = [...pgrps];
      const leader = running.find((p) => p.pid === pgrp);
      expect(leader?.ppid).toBe(first.child.pid);
      expect(pgrp).not.toBe(first.child.pid);
      // …which is the sandbox (prlimit execs bubblewrap) exactly when the operator asks for it.
      const viaBwrap = running.some((p) => /(^|\/)bwrap$/.test(p.argv[0]!));
      expect(viaBwrap).toBe(sandbox === 'bwrap');
      expect(leader!.argv[0]).toMatch(sandbox === 'bwrap' ? /bwrap$/ : /node$/);

      // 2. SIGTERM: the process stops within its deadline and exits 0.
      first.child.kill('SIGTERM');
      expect(await exited(first.child, EXIT_MS)).toBe(0);
      expect(first.output()).toContain('SIGTERM: stopping');
      expect(first.output()).toContain('interrupted by shutdown: job returned to the queue');

      // No process of the validation command is left, the SIGTERM-ignoring grandchild included.
      const deadline = Date.now() + underLoad(5_000);
      while (running.some((p) => alive(p.pid)) && Date.now() < deadline) await sleep(50);
      expect(running.filter((p) => alive(p.pid))).toEqual([]);
      expect(processesWith(token)).toEqual([]);

      // Nothing half-written on the remote: no branch, main untouched.
      expect(remote('for-each-ref', '--format=%(refname)', 'refs/heads/')).toBe('refs/heads/main');
      expect(remote('rev-parse', 'refs/heads/main')).toBe(mainBefore);
      // No PR, no failure report, and the interrupted validation was not taken for a failing
      // fix (no repair request to the LLM).
      expect(github.pulls).toHaveLength(0);
      expect(github.calls('POST', /\/pulls$/)).toHaveLength(0);
      const bodies = [...github.comments.values()].flatMap((c) => c.history);
      expect(bodies.filter((b) => b.includes('Autofix failed'))).toEqual([]);
      expect(github.labels.has('automation-failed')).toBe(false);
      expect(llm.chatRequests()).toHaveLength(3);
      // The job's workspace is gone (parked worktrees are scrubbed; no job directory is left).
      expect(readdirSync(join(workdir, 'jobs'))).toEqual([]);

      // The code job is back in the queue, its attempt not used; nothing failed, no PR job.
      const code = inspect('code');
      const waiting = await code.getJobs(['delayed', 'wait']);
      expect(waiting).toHaveLength(1);
      const job = waiting[0]!;
      expect(job.id).toMatch(/-code$/);
      expect(job.attemptsMade).toBe(0);
      expect(['delayed', 'wait']).toContain(await job.getState());
      // The job names its run; the run's record is the issue's.
      expect(job.id).toBe(`${String((job.data as { runId: string }).runId)}-code`);
      for (const stage of STAGES) {
        expect(await inspect(stage).getFailedCount()).toBe(0);
      }
      expect(await inspect('pr').getJobCountByTypes('wait', 'delayed', 'active')).toBe(0);

      // 3. A restarted process (validation no longer blocks) reruns only the code stage: the fix
      // again, then the PR summary.
      llm.enqueue(FIX_DIFF, JSON.stringify(PR_SUMMARY));
      const second = await serve({});
      const pull = await waitFor(
        () => github!.pulls[0],
        underLoad(40_000),
        'the pull request',
      ).catch((err: Error) => {
        throw new Error(`${err.message}\n--- restarted serve ---\n${second.output()}`);
      });
      const branch = `autofix/fix/${issueNumber}-add-returns-the-wrong-result`;
      expect(pull).toMatchObject({ head: branch, base: 'main' });
      expect(pull.body).toContain(`Fixes #${issueNumber}`);
      expect(pull.body).toMatch(/\| `node test\.js` \| ✅ \| 0 \|/);
      expect(pull.body).toContain(`| \`node slow-test.js ${token}\` | ✅ | 0 |`);
      expect(remote('show', `${branch}:src/math.js`)).toContain('return a + b;');
      expect(remote('rev-parse', 'refs/heads/main')).toBe(mainBefore);
      expect(llm.chatRequests()).toHaveLength(5);
      // After the PR opens, the run still writes the reviewer request, the verification check
      // run and then the final status edit. Serve's production Octokit spaces an installation's
      // writes ≥ 1 s apart, and ≥ 3 s after a content-creating one (the PR), by design. So the
      // final status comes seconds after the PR. Under load (other jest workers, tsc) this took
      // over the 10 s this wait used to allow. The restarted serve's log says why if it ever
      // does not come.
      await waitFor(
        () => [...github!.comments.values()].find((c) => c.body.includes('🚀')),
        underLoad(30_000),
        'the final status',
      ).catch((err: Error) => {
        const statuses = [...github!.comments.values()].map((c) => c.body.split('\n')[0]);
        throw new Error(
          `${err.message}\n--- comments ---\n${statuses.join('\n')}\n--- restarted serve ---\n${second.output()}`,
        );
      });
      expect(
        [...github.comments.values()]
          .flatMap((c) => c.history)
          .filter((b) => b.includes('Autofix failed')),
      ).toEqual([]);
      expect(processesWith(token)).toEqual([]);

      second.child.kill('SIGTERM');
      expect(await exited(second.child, EXIT_MS)).toBe(0);
    },
    underLoad(90_000),
  );
});
