/**
 * `autofix demo --app`: the GitHub App end to end on one machine. `autofix serve` runs in this
 * process (startAutofix with the real stage workers) against Redis and the bundled fake GitHub on
 * 127.0.0.1, with an App key and webhook secret generated for this run. A signed `issues.labeled`
 * delivery for the sample issue starts the run; the status comment is printed each time the app
 * edits it, then the pull request it opened. The repository's clone URL is a local bare copy of
 * the sample, so git never leaves the machine either. Everything is stopped and its Redis keys
 * deleted at the end.
 */
import { createHmac, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { ProbotOctokit } from 'probot';
import { createRedactor } from '../artifacts/redact.js';
import { checkSandbox, operatorSandbox, type SandboxPolicy } from '../exec/index.js';
import { runGit } from '../git/run-git.js';
import { createLogger } from '../logger.js';
import { createRunFailedHook } from '../worker/run-failed-hook.js';
import { createStageProcessors } from '../worker/stage-processors.js';
import { checkRedis, displayRedisUrl } from '../queue/check-redis.js';
import { deleteKeys } from '../queue/delete-keys.js';
import { createMetrics } from '../queue/metrics.js';
import { startAutofix, type AutofixServer } from '../server/start-autofix.js';
import { AutofixError } from '../errors.js';
import { setUpDemo, shellQuote, type DemoOptions } from './demo-setup.js';
import { startFakeGitHub, type FakeComment, type FakeGitHub } from './fake-github.js';
import {
  DEMO_CONFIG,
  DEMO_ISSUE,
  DEMO_ISSUE_NUMBER,
  DEMO_OWNER,
  DEMO_REPO_NAME,
} from './sample.js';

/** Where `serve` takes GitHub's deliveries. */
const WEBHOOK_PATH = '/api/github/webhooks';
const SENDER = 'pat';
const INSTALLATION_ID = 4242;
const RUN_TIMEOUT_MS = 180_000;
const FINAL_HEADLINE = /^### (🚀|⏹|❌) /m;

export interface DemoAppResult {
  ok: boolean;
  /** Every body the status comment had, in order. */
  statusEdits: string[];
  pull?: { title: string; body: string; head: string; base: string; draft: boolean };
}

/**
 * Probot's Octokit without client-side throttling: the fake GitHub has no rate limit, and the
 * production spacing (≥ 1 s between an installation's writes, ≥ 3 s between notifying ones)
 * would only slow the demo down. Function form: Probot's own `throttle` options win otherwise.
 */
function demoOctokit(): typeof ProbotOctokit {
  return ProbotOctokit.defaults((options: Record<string, unknown>) => ({
    ...options,
    throttle: { enabled: false },
  }));
}

function labeledPayload(cloneUrl: string): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    action: 'labeled',
    issue: {
      number: DEMO_ISSUE_NUMBER,
      title: DEMO_ISSUE.title,
      body: DEMO_ISSUE.body,
      state: 'open',
      user: { login: SENDER, type: 'User' },
      labels: [{ name: 'autofix' }],
      created_at: now,
      updated_at: now,
    },
    label: { name: 'autofix' },
    repository: {
      id: 1,
      name: DEMO_REPO_NAME,
      full_name: `${DEMO_OWNER}/${DEMO_REPO_NAME}`,
      private: false,
      default_branch: 'main',
      clone_url: cloneUrl,
      owner: { login: DEMO_OWNER, type: 'User' },
    },
    sender: { login: SENDER, type: 'User' },
    installation: { id: INSTALLATION_ID },
  };
}

/** POSTs a delivery signed as GitHub signs it (HMAC-SHA256 of the body with the secret). */
async function deliver(
  appUrl: string,
  secret: string,
  event: string,
  payload: Record<string, unknown>,
): Promise<number> {
  const body = JSON.stringify(payload);
  const res = await fetch(`${appUrl}${WEBHOOK_PATH}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/autofix-demo',
      'x-github-event': event,
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

/** A status comment as plain text: its hidden markers out, the markdown as it is. */
function plain(body: string): string {
  return body
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<\/?(details|summary|sub|sup|b|i|code)>/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const indent = (text: string): string =>
  text
    .split('\n')
    .map((l) => (l ? `  │ ${l}` : '  │'))
    .join('\n');

function redisHelp(url: string): string {
  return (
    `autofix demo --app needs Redis at ${displayRedisUrl(url)} (REDIS_URL). Start one:\n` +
    '  sudo apt-get install -y redis-server && sudo service redis-server start   # Debian/Ubuntu\n' +
    '  docker run -d --name autofix-redis -p 127.0.0.1:6379:6379 redis:7           # or Docker\n' +
    '  npm run up                                                                   # or the one-command setup\n' +
    'or set REDIS_URL to a reachable server. `autofix demo` (without --app) needs no Redis.'
  );
}

export async function runDemoApp(
  options: DemoOptions & { redisUrl: string },
  out: NodeJS.WritableStream,
): Promise<DemoAppResult> {
  const started = Date.now();
  const say = (text = ''): void => void out.write(`${text}\n`);
  try {
    await checkRedis(options.redisUrl);
  } catch (err) {
    throw new AutofixError(
      'CONFIG_INVALID',
      `${err instanceof Error ? err.message : String(err)}\n${redisHelp(options.redisUrl)}`,
    );
  }
  const demo = await setUpDemo(options);
  const prefix = `autofix-demo-${randomUUID().slice(0, 8)}`;
  const secret = randomBytes(24).toString('hex');
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  let github: FakeGitHub | undefined;
  let app: AutofixServer | undefined;
  const result: DemoAppResult = { ok: false, statusEdits: [] };
  try {
    const bare = join(demo.root, `${DEMO_REPO_NAME}.git`);
    await runGit(['clone', '--quiet', '--bare', demo.repo, bare], { cwd: demo.root });
    github = await startFakeGitHub({ appPublicKey: publicKey, appSlug: 'autofix-demo' });
    github.setPermission(SENDER, 'write');
    github.setFile('.github/autofix.yml', DEMO_CONFIG);
    github.setIssue(DEMO_ISSUE_NUMBER, DEMO_ISSUE.title, DEMO_ISSUE.body);

    const settings = demo.settings({ REDIS_URL: options.redisUrl, ...github.env });
    const redact = createRedactor([...settings.secrets, secret, pem]);
    const log = createLogger({ level: 'silent' });
    const sandbox: SandboxPolicy = operatorSandbox(settings, {
      disabledBy: 'the demo ran with --sandbox none',
    });
    if (sandbox.mode !== 'none') await checkSandbox(sandbox, undefined, '--sandbox none');
    const deps = { settings, log, metrics: createMetrics(), redact, sandbox };
    app = await startAutofix({
      github: {
        appId: '1',
        privateKey: pem,
        webhookSecret: secret,
        apiUrl: github.apiUrl,
        Octokit: demoOctokit(),
      },
      redisUrl: options.redisUrl,
      prefix,
      host: '127.0.0.1',
      port: 0,
      log,
      redact,
      metrics: deps.metrics,
      reconcileIntervalMs: 0,
      webhookProxyUrl: null,
      workers: {
        processors: createStageProcessors(deps),
        onRunFailed: createRunFailedHook(deps),
        // The demo is there to show the comment as each stage ends: created at once, every
        // version written (the real app waits a few seconds and coalesces, status-publisher.ts).
        statusCreateAfterMs: 0,
        statusDebounceMs: 0,
      },
    });

    say('autofix demo --app: the GitHub App on this machine, with a scripted model.');
    say(
      `  autofix serve  ${app.url} (in this process; queues on ${displayRedisUrl(options.redisUrl)}, prefix ${prefix})`,
    );
    say(
      `  GitHub         ${github.apiUrl} (the bundled fake GitHub; App key and webhook secret made for this run)`,
    );
    say(`  repository     ${DEMO_OWNER}/${DEMO_REPO_NAME}, cloned from ${bare}`);
    say(`  model          scripted, ${demo.llm.baseUrl}`);
    say(`  sandbox        ${sandbox.mode === 'none' ? 'none (--sandbox none)' : 'bubblewrap'}`);
    say();
    say(`→ A maintainer labels issue #${DEMO_ISSUE_NUMBER} "autofix": "${DEMO_ISSUE.title}"`);
    const status = await deliver(app.url, secret, 'issues', labeledPayload(bare));
    say(`  signed issues.labeled webhook → ${status}`);
    if (status >= 300)
      throw new AutofixError('INTERNAL', `the app answered the webhook with ${status}`);

    // Print each version of the status comment as the app edits it.
    const shown = new Map<number, number>();
    const printNew = (): FakeComment | undefined => {
      let final: FakeComment | undefined;
      for (const c of github!.comments.values()) {
        const from = shown.get(c.id) ?? 0;
        for (let i = from; i < c.history.length; i++) {
          const body = c.history[i]!;
          result.statusEdits.push(body);
          say();
          say(
            `── comment on issue #${c.issueNumber} by ${github!.botLogin}, ${i === 0 ? 'posted' : `edit ${i}`} (${((Date.now() - started) / 1000).toFixed(1)} s) ──`,
          );
          say(indent(plain(body)));
        }
        shown.set(c.id, c.history.length);
        if (FINAL_HEADLINE.test(c.body)) final = c;
      }
      return final;
    };
    const deadline = Date.now() + RUN_TIMEOUT_MS;
    let final: FakeComment | undefined;
    while (!final) {
      if (Date.now() > deadline)
        throw new AutofixError('INTERNAL', `the run did not end within ${RUN_TIMEOUT_MS / 1000} s`);
      await new Promise((r) => setTimeout(r, 50));
      final = printNew();
    }
    // A failure adds its comment and label after the status: give them a moment.
    await new Promise((r) => setTimeout(r, 300));
    printNew();

    const pull = github.pulls[0];
    say();
    if (pull) {
      result.pull = {
        title: pull.title,
        body: pull.body,
        head: pull.head,
        base: pull.base,
        draft: pull.draft,
      };
      const diff = await runGit(['--git-dir', bare, 'show', '--format=medium', pull.head], {
        cwd: demo.root,
      });
      say(
        `── pull request #${pull.number} opened by ${github.botLogin}${pull.draft ? ' (draft)' : ''} ──`,
      );
      say(`  title   ${pull.title}`);
      say(`  branch  ${pull.head} → ${pull.base}`);
      // The folded <details> (diff, full validation output) is shown below as the commit.
      const cut = pull.body.indexOf('<details>');
      say('  body:');
      say(indent(cut < 0 ? pull.body.trim() : pull.body.slice(0, cut).trim()));
      if (cut >= 0)
        say('  │ ▸ Details (folded on GitHub): branch, commit, diff, full validation output');
      say(`  the pushed commit (git --git-dir ${shellQuote(bare)} show ${pull.head}):`);
      say(indent(diff.stdout.trimEnd()));
      result.ok = /^### 🚀 /m.test(final.body);
    } else {
      say('No pull request was opened: the status comment above says why.');
    }
    say();
    say(
      `Requests to the fake GitHub: ${github.requests.length}; to the scripted model: ${demo.llm.chatRequests().length}.`,
    );
    say(`The pushed branch stays in ${bare} (the sample's "GitHub" remote).`);
    say(`  git --git-dir ${shellQuote(bare)} log --oneline --all`);
    say(`  rm -rf ${shellQuote(demo.root)}   # when done`);
    return result;
  } finally {
    await app?.stop(5000).catch(() => undefined);
    await github?.close().catch(() => undefined);
    await deleteKeys(options.redisUrl, prefix).catch(() => undefined);
    await demo.cleanup();
    say(
      `Stopped the app, the fake GitHub and the model; deleted the Redis keys ${prefix}:*. Demo took ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  }
}
