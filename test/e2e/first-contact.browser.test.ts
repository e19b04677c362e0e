/**
 * First contact in a real browser (headless Chromium from Debian's `chromium` package, driven by
 * playwright-core; .ci/ensure-services installs it): the compiled `autofix serve` in setup mode,
 * its "Register GitHub App" form posted to a route that stands in for GitHub; then the status
 * page of a configured server before and after a signed webhook, once relayed through a fake
 * smee channel (WEBHOOK_PROXY_URL, no dashboard password: counts only) and once delivered
 * directly (ADMIN_PASSWORD: the run's repository and issue, behind basic auth).
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { parse as parseYaml } from 'yaml';
import { freePort, REPO_ROOT, startCli } from '../helpers/cli.js';
import { startFakeGitHub, type FakeGitHub } from '../helpers/fake-github.js';
import { startFakeSmee, type FakeSmee } from '../helpers/fake-smee.js';
import { deliver, generateAppKeyPair, labeledPayload } from '../helpers/webhooks.js';
import { deleteKeys, REDIS_URL, waitFor } from '../integration/app/harness.js';
import { underLoad, WAIT_MS } from '../helpers/deadlines.js';

const CHROMIUM = '/usr/bin/chromium';
const SECRET = 'first-contact-secret';
const OWNER = 'fc-owner';
const REPO = 'fc-private-repo';
const keys = generateAppKeyPair();

describe('first contact in a browser', () => {
  let browser: Browser;
  const children: ChildProcess[] = [];
  const contexts: BrowserContext[] = [];
  const dirs: string[] = [];
  const prefixes: string[] = [];
  let github: FakeGitHub | undefined;
  let smee: FakeSmee | undefined;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/ensure-services)`);
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });

  afterAll(async () => {
    await browser?.close();
  });

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
    for (const child of children.splice(0)) child.kill('SIGTERM');
    await github?.close();
    await smee?.close();
    github = smee = undefined;
    for (const prefix of prefixes.splice(0)) await deleteKeys(REDIS_URL, prefix);
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function serve(env: Record<string, string>, args: string[] = []) {
    const port = await freePort();
    const cwd = mkdtempSync(join(tmpdir(), 'autofix-first-contact-')); // no .env, no app.yml
    dirs.push(cwd);
    const cli = startCli(['serve', ...args], {
      cwd,
      env: { HOST: '127.0.0.1', PORT: String(port), NO_SMEE_SETUP: 'true', ...env },
    });
    children.push(cli.child);
    const url = `http://127.0.0.1:${port}`;
    await waitFor(
      async () => (await fetch(`${url}/healthz`).catch(() => undefined))?.ok || undefined,
      underLoad(20_000),
      `serve to listen\n${cli.output()}`,
    );
    return { ...cli, url };
  }

  async function newPage(options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
    const context = await browser.newContext(options);
    contexts.push(context);
    return context.newPage();
  }

  /** A configured `autofix serve --no-workers` against the fake GitHub, own Redis prefix. */
  async function configuredServe(env: Record<string, string> = {}) {
    github = await startFakeGitHub({ appPublicKey: keys.publicKey });
    github.setPermission('maintainer', 'write');
    github.setFile('.github/autofix.yml', 'reproduce: off\nvalidate:\n  - node test.js\n');
    const prefix = `autofix-fc-${randomUUID().slice(0, 8)}`;
    prefixes.push(prefix);
    const server = await serve(
      {
        APP_ID: '1',
        PRIVATE_KEY: keys.privateKey,
        WEBHOOK_SECRET: SECRET,
        ...github.env,
        REDIS_URL,
        AUTOFIX_RECONCILE_INTERVAL_MS: '0',
        ...env,
      },
      ['--no-workers', '--queue-prefix', prefix],
    );
    return server;
  }

  /** The status page's queue table as { queue: [waiting, active, delayed, failed] }. */
  async function queueTable(page: Page): Promise<Record<string, number[]>> {
    const rows: string[][] = [];
    for (const row of await page.locator('#queues tr').all()) {
      rows.push((await row.locator('td').allInnerTexts()).map((cell) => cell.trim()));
    }
    const table: Record<string, number[]> = {};
    for (const [name, ...n] of rows) if (name !== undefined) table[name] = n.map(Number);
    return table;
  }

  /** Reloads the page until `done` holds for its text. */
  async function reloadUntil(page: Page, url: string, done: (text: string) => boolean) {
    return waitFor(
      async () => {
        await page.goto(url);
        const text = await page.locator('body').innerText();
        return done(text) ? text : undefined;
      },
      underLoad(20_000),
      `the status page to change`,
    );
  }

  it('setup mode: the form posts app.yml to GitHub as valid JSON with the right URLs', async () => {
    const { url, output } = await serve({});
    const appYml = parseYaml(readFileSync(join(REPO_ROOT, 'app.yml'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(String(appYml.description)).toContain("'");

    const page = await newPage();
    // GitHub's "new App" page, answered locally: what the browser would really send.
    const posted: { url: string; body: string }[] = [];
    await page.context().route('https://github.com/**', async (route) => {
      posted.push({ url: route.request().url(), body: route.request().postData() ?? '' });
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<p>github</p>' });
    });
    await page.goto(`${url}/`);
    // The field's value as the DOM holds it (tests run without the DOM typings: a string).
    const inDom = await page.evaluate<string | null>(
      `document.querySelector('form [name="manifest"]')?.value ?? null`,
    );
    await page.getByRole('button', { name: 'Register GitHub App' }).click();
    await waitFor(() => (posted.length > 0 ? true : undefined), WAIT_MS, `the POST\n${output()}`);

    expect(posted[0]!.url).toBe('https://github.com/settings/apps/new');
    const sent = new URLSearchParams(posted[0]!.body).get('manifest');
    expect(sent).toBe(inDom);
    const manifest = JSON.parse(sent!) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: appYml.name,
      url: appYml.url,
      description: appYml.description,
      public: appYml.public,
      default_permissions: appYml.default_permissions,
      default_events: appYml.default_events,
      hook_attributes: { url: `${url}/api/github/webhooks` },
      redirect_url: `${url}/probot/setup`,
    });
    // The redirect is served (Probot's code exchange: without a code, 400 — not 404).
    const redirect = await fetch(`${url}/probot/setup`);
    expect(redirect.status).toBe(400);
    // The page says GitHub cannot reach 127.0.0.1 and points at the tunnel.
    await page.goto(`${url}/`);
    await expect(page.locator('#tunnel-note').innerText()).resolves.toContain('WEBHOOK_PROXY_URL');
    // Setup mode has /metrics too.
    const metrics = await page.goto(`${url}/metrics`);
    expect(metrics?.status()).toBe(200);
  });

  it('status page without a dashboard password: webhook relayed via WEBHOOK_PROXY_URL, counts only', async () => {
    smee = await startFakeSmee();
    const { url, output } = await configuredServe({ WEBHOOK_PROXY_URL: smee.url });
    const page = await newPage();

    const before = await page.goto(`${url}/`);
    expect(before?.status()).toBe(200);
    await expect(page.locator('#webhooks').innerText()).resolves.toContain(
      'No webhook has arrived',
    );
    expect(await queueTable(page)).toMatchObject({ triage: [0, 0, 0, 0] });
    expect(await page.locator('a[href="/metrics"]').count()).toBe(1);
    await expect(page.locator('body').innerText()).resolves.toContain('/admin/queues is disabled');

    await waitFor(() => smee!.clients() || undefined, WAIT_MS, `the relay to connect\n${output()}`);
    smee.relay('issues', labeledPayload({ owner: OWNER, repo: REPO, issueNumber: 41 }), SECRET);

    const text = await reloadUntil(page, `${url}/`, (t) => t.includes('Webhooks received: 1'));
    expect(text).toMatch(/last: issues at \d{4}-\d\d-\d\dT/);
    await reloadUntil(page, `${url}/`, (t) => /triage\t1\t/.test(t));
    expect((await queueTable(page)).triage).toEqual([1, 0, 0, 0]);
    await expect(page.locator('#runs').innerText()).resolves.toMatch(/in progress\s+1/);
    // Nothing that identifies a repository, an issue or a run.
    const html = await page.content();
    expect(html).not.toContain(OWNER);
    expect(html).not.toContain(REPO);
    expect(html).not.toContain('#41');
    expect(html).not.toMatch(/run-[0-9a-f]{16}/);
    expect(html).not.toContain(SECRET);
  });

  it('status page with ADMIN_PASSWORD: basic auth, then the run with its repository and issue', async () => {
    const password = 'fc-dashboard-password';
    const { url } = await configuredServe({ ADMIN_PASSWORD: password });

    // Headless Chromium turns a basic-auth challenge without credentials into a navigation error:
    // ask through the browser context's own HTTP client instead.
    const anonymous = await newPage();
    const refused = await anonymous.request.get(`${url}/`);
    expect(refused.status()).toBe(401);
    expect(refused.headers()['www-authenticate']).toMatch(/^Basic/);
    expect(await refused.text()).not.toContain(REPO);
    const wrong = await newPage({ httpCredentials: { username: 'admin', password: 'wrong' } });
    expect((await wrong.request.get(`${url}/`)).status()).toBe(401);

    const res = await deliver(url, {
      event: 'issues',
      payload: labeledPayload({ owner: OWNER, repo: REPO, issueNumber: 42 }),
      secret: SECRET,
    });
    expect(res.status).toBe(200);

    const page = await newPage({ httpCredentials: { username: 'admin', password } });
    const text = await reloadUntil(page, `${url}/`, (t) => t.includes(`${OWNER}/${REPO}`));
    expect(text).toContain('Webhooks received: 1');
    const row = await page.locator('#runs tr', { hasText: `${OWNER}/${REPO}` }).innerText();
    expect(row).toContain('#42');
    expect(row).toContain('in progress');
    expect(row).toMatch(/triage (waiting|running)/);
    expect(await page.content()).not.toContain(password);
    // The dashboard link works with the same credentials.
    await page.getByRole('link', { name: '/admin/queues' }).click();
    await page.waitForURL(`${url}/admin/queues`);
    expect(await page.title()).not.toBe('');
  });
});
