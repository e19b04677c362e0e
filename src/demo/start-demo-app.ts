/**
 * What `autofix demo --app` starts: the fake GitHub with the sample's issue, config and sender,
 * and `autofix serve` in this process against it, with an App key and webhook secret made for
 * this run.
 */
import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { ProbotOctokit } from 'probot';
import { startFakeGitHub, type FakeGitHub } from '../../fakes/github/index.js';
import { createRedactor } from '../artifacts/redact.js';
import { checkSandbox, operatorSandbox, type SandboxPolicy } from '../exec/index.js';
import { createLogger } from '../logger.js';
import { createMetrics } from '../scheduler/metrics.js';
import { startAutofix, type AutofixServer } from '../hosts/app/start-autofix.js';
import { createRunFailedHook } from '../hosts/app/stages/run-failed-hook.js';
import { createStageProcessors } from '../hosts/app/stages/stage-processors.js';
import type { DemoSetup } from './demo-setup.js';
import { DEMO_CONFIG, DEMO_ISSUE, DEMO_ISSUE_NUMBER } from './sample.js';

/** The user who labels the sample issue (a collaborator with write access). */
export const DEMO_SENDER = 'pat';

/** The App's key pair and webhook secret, made for this run. */
export interface DemoAppKeys {
  secret: string;
  pem: string;
  publicKey: KeyObject;
}

export function demoAppKeys(): DemoAppKeys {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    secret: randomBytes(24).toString('hex'),
    pem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    publicKey,
  };
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

export async function startDemoGitHub(keys: DemoAppKeys): Promise<FakeGitHub> {
  const github = await startFakeGitHub({ appPublicKey: keys.publicKey, appSlug: 'autofix-demo' });
  github.setPermission(DEMO_SENDER, 'write');
  github.setFile('.github/autofix.yml', DEMO_CONFIG);
  github.setIssue(DEMO_ISSUE_NUMBER, DEMO_ISSUE.title, DEMO_ISSUE.body);
  return github;
}

export interface DemoApp {
  app: AutofixServer;
  sandbox: SandboxPolicy;
}

/** `autofix serve` with the real stage workers, on 127.0.0.1, against the fake GitHub. */
export async function startDemoAutofix(target: {
  demo: DemoSetup;
  github: FakeGitHub;
  keys: DemoAppKeys;
  redisUrl: string;
  prefix: string;
}): Promise<DemoApp> {
  const { demo, github, keys, redisUrl } = target;
  const settings = demo.settings({ REDIS_URL: redisUrl, ...github.env });
  const redact = createRedactor([...settings.secrets, keys.secret, keys.pem]);
  const log = createLogger({ level: 'silent' });
  const sandbox = operatorSandbox(settings, { disabledBy: 'the demo ran with --sandbox none' });
  if (sandbox.mode !== 'none') await checkSandbox(sandbox, undefined, '--sandbox none');
  const deps = { settings, log, metrics: createMetrics(), redact, sandbox };
  const app = await startAutofix({
    github: {
      appId: '1',
      privateKey: keys.pem,
      webhookSecret: keys.secret,
      apiUrl: github.apiUrl,
      Octokit: demoOctokit(),
    },
    redisUrl,
    prefix: target.prefix,
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
  return { app, sandbox };
}
