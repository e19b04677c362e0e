/**
 * The run page in a real browser (headless Chromium from Debian's `chromium`, driven by
 * playwright-core): a succeeded and a failed run's pages opened by their signed links, the items a
 * reader needs visible, the style sheet applied under the strict Content-Security-Policy (no
 * violation reported), and a screenshot of each written to `SCREENSHOTS` (outside the repository:
 * `$TMPDIR/autofix-run-page-screenshots`) for a person to look at. Also the other way in: a browser
 * signed in on the status page with ADMIN_PASSWORD sends it along to a run page's plain address.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createRedactor } from '../../src/artifacts/redact.js';
import { askForPassword, passwordMatches } from '../../src/hosts/app/admin-queues.js';
import { runPageRoute } from '../../src/hosts/app/run-page/run-page-route.js';
import type { HttpHandler } from '../../src/http-handler.js';
import { createMemoryRunStore } from '../../src/runs/memory-run-store.js';
import { createRunPageLinks, runPageKey } from '../../src/runs/run-page-link.js';
import type { Run } from '../../src/runs/run-record.js';
import { failedRun, parkedRun, succeededRun } from '../helpers/run-records.js';

const CHROMIUM = '/usr/bin/chromium';
const SECRET = 'browser-webhook-secret-0123';
const PASSWORD = 'browser-admin-password';
const SCREENSHOTS = join(tmpdir(), 'autofix-run-page-screenshots');

describe('the run page in a browser', () => {
  let browser: Browser;
  let server: Server;
  let base: string;
  const links = createRunPageLinks({ baseUrl: 'http://placeholder', key: runPageKey(SECRET) });
  const runs = createMemoryRunStore();
  const failed: Run = { ...failedRun(), runId: 'run-faffaffaffaffaff' };
  const parked: Run = { ...parkedRun(), runId: 'run-0a0a0a0a0a0a0a0a' };

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/ensure-services)`);
    }
    mkdirSync(SCREENSHOTS, { recursive: true });
    for (const run of [succeededRun(), failed, parked]) await runs.create(run);
    const handler = runPageRoute({
      runs,
      links,
      password: PASSWORD,
      redact: createRedactor([SECRET, PASSWORD]),
      now: () => succeededRun().acceptedAt + 3600_000,
    });
    // `/` stands in for the status page: the dashboard's basic-auth challenge, then a link.
    const statusPage: HttpHandler = (req, res) => {
      if (req.url !== '/') return false;
      if (!passwordMatches(req.headers.authorization, PASSWORD)) askForPassword(res);
      else res.end(`<a id="run" href="/runs/${failed.runId}">${failed.runId}</a>`);
      return true;
    };
    server = createServer((req, res) => {
      void (async () => {
        const done = (await statusPage(req, res)) || (await handler(req, res));
        if (!done) res.writeHead(404).end();
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** Opens a run's signed link; CSP violations the page reports are collected. */
  async function open(run: Run): Promise<{ page: Page; violations: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content.Security.Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    const url = new URL(links.urlOf(run));
    const res = await page.goto(`${base}${url.pathname}${url.search}`);
    expect(res?.status()).toBe(200);
    return { page, violations };
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    const path = join(SCREENSHOTS, `${name}.png`);
    await page.screenshot({ path, fullPage: true });
    // A page that rendered: tens of kilobytes of pixels, not a blank frame.
    expect(statSync(path).size).toBeGreaterThan(20_000);
    await page.context().close();
  }

  // A string expression: the tests are compiled without the DOM's typings.
  const background = (page: Page, selector: string): Promise<string> =>
    page.evaluate<string>(
      `getComputedStyle(document.querySelector(${JSON.stringify(selector)})).backgroundColor`,
    );

  it('shows a succeeded run: outcome, stages with cost, ranking, plan, evidence, diff, transcript', async () => {
    const { page, violations } = await open(succeededRun());
    await expect(page.locator('#outcome h2').innerText()).resolves.toBe('Succeeded');
    await expect(page.locator('#outcome a').getAttribute('href')).resolves.toBe(
      'https://github.com/acme/slugs/pull/8',
    );
    const rows = await page.locator('#stages tr').allInnerTexts();
    expect(rows.find((r) => r.startsWith('code'))).toMatch(
      /done.*8\.0 s\s+2\s+gpt-4\.1-mini\s+9,000\s+2,100\s+\$0\.0091/s,
    );
    expect(rows.at(-1)).toMatch(/total.*40\.0 s\s+6\s+15,900\s+3,150\s+\$0\.0154/s);
    await expect(page.locator('#ranked').innerText()).resolves.toContain(
      'defines `slug`; named in the title',
    );
    await expect(page.locator('#plan-steps').innerText()).resolves.toContain(
      'Use a global regular expression',
    );
    await expect(page.locator('#plan-commands').innerText()).resolves.toContain('npm test');
    await expect(page.locator('#repro-base').innerText()).resolves.toContain('failed (exit 1)');
    await expect(page.locator('#repro-fix').innerText()).resolves.toContain('passed');
    await expect(page.locator('#validation').innerText()).resolves.toContain('# pass 2');
    await expect(page.locator('#diff .add').first().innerText()).resolves.toContain('/\\s+/g');
    const diff = await page.locator('#diff pre').innerText();
    expect(diff.split('\n').filter((l) => l.startsWith('+')).length).toBe(4);
    await expect(page.locator('#transcript li').count()).resolves.toBe(3);
    // The style sheet applied (its hash is in the CSP): the outcome box is green.
    await expect(background(page, '#outcome')).resolves.toBe('rgb(218, 251, 225)');
    expect(violations).toEqual([]);
    await screenshot(page, 'succeeded');
  });

  it('shows a failed run with its root cause first', async () => {
    const { page, violations } = await open(failed);
    const first = page.locator('body > section').first();
    await expect(first.getAttribute('id')).resolves.toBe('outcome');
    await expect(page.locator('#outcome h2').innerText()).resolves.toBe('Failed in code');
    await expect(page.locator('#root-cause').innerText()).resolves.toContain(
      'VALIDATION_FAILED `npm test` failed after 2 repairs',
    );
    await expect(background(page, '#outcome')).resolves.toBe('rgb(255, 235, 233)');
    const rows = await page.locator('#stages tr').allInnerTexts();
    expect(rows.find((r) => r.startsWith('code'))).toMatch(/failed/);
    expect(rows.find((r) => r.startsWith('pr'))).toMatch(/not started/);
    await expect(page.locator('#validation').innerText()).resolves.toContain(
      "AssertionError: 'a-b c' !== 'a-b-c'",
    );
    expect(violations).toEqual([]);
    await screenshot(page, 'failed');
  });

  it('opens a run page from the status page once signed in with the admin password', async () => {
    const context = await browser.newContext({
      httpCredentials: { username: 'admin', password: PASSWORD },
    });
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.locator('#run').click();
    await page.waitForURL(`${base}/runs/${failed.runId}`);
    await expect(page.locator('#outcome h2').innerText()).resolves.toBe('Failed in code');
    // Without the password, the same address is a 404 that names nothing.
    const res = await page.request.get(`${base}/runs/${failed.runId}`, {
      headers: { authorization: 'Basic ' + Buffer.from('admin:guess').toString('base64') },
    });
    expect(res.status()).toBe(404);
    await context.close();
  });

  it('shows why a parked run waits', async () => {
    const { page } = await open(parked);
    await expect(page.locator('#outcome h2').innerText()).resolves.toBe(
      'Paused: waiting for more budget',
    );
    await expect(page.locator('#park-message').innerText()).resolves.toContain('$1.94 of $2.00');
    await screenshot(page, 'parked');
  });
});
