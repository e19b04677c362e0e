/**
 * What `serve` and `worker` say at start and how `serve` answers probes (issue #37), on the
 * compiled CLI: a warning when no LLM is configured, Autofix's own start-up line (not Probot's
 * banner, nor its smee.io warning), HEAD answered like GET, `/readyz` in setup mode, and the
 * "use an existing GitHub App" page with its webhook URL.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deleteKeys } from '../../src/scheduler/delete-keys.js';
import { freePort, REPO_ROOT, startCli, waitFor } from '../helpers/cli.js';
import { generateAppKeyPair } from '../helpers/webhooks.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const keys = generateAppKeyPair();
const prefix = `autofix-serve-start-${randomUUID().slice(0, 8)}`;
const NO_LLM = 'No LLM configured (OPENAI_API_KEY and OPENAI_BASE_URL are both unset)';

let cwd: string;
beforeAll(() => {
  // No .env; app.yml and package.json as the operator's checkout has them.
  cwd = mkdtempSync(join(tmpdir(), 'autofix-serve-start-'));
  symlinkSync(join(REPO_ROOT, 'app.yml'), join(cwd, 'app.yml'));
  symlinkSync(join(REPO_ROOT, 'package.json'), join(cwd, 'package.json'));
});
afterAll(async () => {
  rmSync(cwd, { recursive: true, force: true });
  await deleteKeys(REDIS_URL, prefix);
});

const credentials = {
  APP_ID: '1',
  PRIVATE_KEY: keys.privateKey,
  WEBHOOK_SECRET: 'serve-start-secret',
  REDIS_URL,
  AUTOFIX_SANDBOX: 'none',
  AUTOFIX_RECONCILE_INTERVAL_MS: '0',
  // The status page asks GitHub for the App's name: a closed port answers at once.
  GHE_HOST: '127.0.0.1:9',
  GHE_PROTOCOL: 'http',
};

/** Starts the CLI, waits for `ready`, runs `fn`, then stops it and returns its output. */
async function running(
  args: string[],
  env: Record<string, string>,
  ready: (base: string, output: () => string) => Promise<unknown>,
  fn: (base: string) => Promise<void> = () => Promise.resolve(),
): Promise<string> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { child, output } = startCli([...args, '--queue-prefix', prefix], {
    cwd,
    env: { HOST: '127.0.0.1', PORT: String(port), ...env },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await waitFor(() => ready(base, output), 20_000).catch((err: Error) => {
      throw new Error(`${err.message}\n${output()}`);
    });
    await fn(base);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  return output();
}

const healthy = async (base: string) =>
  (await fetch(`${base}/healthz`).catch(() => undefined))?.ok || undefined;

/** HEAD answers with GET's status and headers, and no body. */
async function expectHeadLikeGet(url: string): Promise<void> {
  const get = await fetch(url);
  await get.arrayBuffer();
  const head = await fetch(url, { method: 'HEAD' });
  expect({ url, status: head.status }).toEqual({ url, status: get.status });
  expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
  expect(await head.text()).toBe('');
}

describe('serve with credentials', () => {
  it('warns once that runs fail without an LLM; says where it listens; HEAD answers like GET', async () => {
    const out = await running(['serve'], credentials, healthy, async (base) => {
      for (const path of ['/', '/healthz', '/readyz', '/metrics', '/ping']) {
        await expectHeadLikeGet(`${base}${path}`);
      }
      expect((await fetch(`${base}/healthz`, { method: 'HEAD' })).status).toBe(200);
    });
    expect(out.split(NO_LLM)).toHaveLength(2);
    expect(out).toContain('every run will fail in triage. Set OPENAI_API_KEY');
    expect(out).toMatch(
      /Autofix listening on http:\/\/127\.0\.0\.1:\d+ \(webhooks at \/api\/github\/webhooks\)/,
    );
    expect(out).not.toContain('Running Probot');
    expect(out).toContain('"msg":"HEAD /healthz 200 - ');
  });

  it('says nothing about the LLM with --no-workers (no LLM call is made there)', async () => {
    const out = await running(['serve', '--no-workers'], credentials, healthy);
    expect(out).not.toContain('No LLM configured');
  });
});

describe('worker', () => {
  const started = (_base: string, output: () => string) =>
    Promise.resolve(output().includes('workers running') || undefined);

  it('warns without an LLM', async () => {
    const out = await running(['worker'], credentials, started);
    expect(out).toContain(NO_LLM);
  });

  it('does not warn when OPENAI_BASE_URL is set', async () => {
    const out = await running(
      ['worker'],
      { ...credentials, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
      started,
    );
    expect(out).not.toContain('No LLM configured');
  });
});

describe('serve in setup mode', () => {
  it("one start-up message, Autofix's; /readyz is 503 with the reason; HEAD / is 200", async () => {
    // NO_SMEE_SETUP is not set here: setup mode must keep Probot from smee.io by itself.
    const out = await running(['serve'], { REDIS_URL }, healthy, async (base) => {
      await expectHeadLikeGet(`${base}/`);
      await expectHeadLikeGet(`${base}/readyz`);
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({
        status: 'not ready',
        reason: expect.stringContaining('setup mode: no GitHub App credentials yet') as string,
      });
      // "Use an existing GitHub App": step 1 names the webhook URL to set.
      const page = await (await fetch(`${base}/probot/import`)).text();
      expect(page).toContain(`<b>${base}/api/github/webhooks</b>`);
    });
    const infos = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: number; name?: string; msg: string })
      .filter((entry) => entry.level >= 30 && entry.name !== 'http');
    expect(infos.map((e) => e.msg)).toEqual([
      expect.stringMatching(
        /^No GitHub App credentials yet: open http:\/\/127\.0\.0\.1:\d+ to register Autofix from app\.yml \(the credentials are written to \.env\)\. GitHub must reach this server/,
      ),
    ]);
  });
});
