/**
 * `GET /runs/<id>` over HTTP (the route alone, on a plain node:http server, runs in memory): a
 * signed link opens the page, ADMIN_PASSWORD opens it too, and everything else — forged, altered,
 * expired, guessed, a run that does not exist — gets the same 404 with nothing about the run.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRedactor } from '../../../src/artifacts/redact.js';
import { runPageRoute } from '../../../src/hosts/app/run-page/run-page-route.js';
import { createMemoryRunStore } from '../../../src/runs/memory-run-store.js';
import { createRunPageLinks, runPageKey, signRunPage } from '../../../src/runs/run-page-link.js';
import { succeededRun } from '../../helpers/run-records.js';

const SECRET = 'route-webhook-secret-0123';
const PASSWORD = 'route-admin-password';
const links = createRunPageLinks({
  baseUrl: 'https://autofix.example.com',
  key: runPageKey(SECRET),
});
const run = succeededRun();
const NOW = run.acceptedAt + 3600_000;

describe('the run page route', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const runs = createMemoryRunStore();
    await runs.create(run);
    await runs.create({ ...run, runId: 'run-fedcba9876543210' });
    const handler = runPageRoute({
      runs,
      links,
      password: PASSWORD,
      redact: createRedactor([SECRET, PASSWORD]),
      now: () => NOW,
    });
    server = createServer((req, res) => {
      void Promise.resolve(handler(req, res)).then((done) => {
        if (!done) res.writeHead(418).end('not mine');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  /** The signed link of `run`, on this test server. */
  const signed = (runId = run.runId): URL => {
    const url = new URL(links.urlOf({ runId, acceptedAt: run.acceptedAt }));
    return new URL(`${url.pathname}${url.search}`, base);
  };
  const get = async (url: URL | string, headers: Record<string, string> = {}) => {
    const res = await fetch(url, { headers, redirect: 'manual' });
    return { status: res.status, headers: res.headers, body: await res.text() };
  };

  it('opens the page for a signed link, with headers that keep the link and page private', async () => {
    const res = await get(signed());
    expect(res.status).toBe(200);
    expect(res.body).toContain('acme/slugs#7');
    expect(res.body).toContain('id="stages"');
    expect(res.headers.get('content-security-policy')).toMatch(
      /^default-src 'none'; style-src 'sha256-/,
    );
    expect(res.headers.get('content-security-policy')).not.toMatch(/script-src|unsafe/);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-robots-tag')).toMatch(/noindex/);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers every forged, altered, expired or guessed link with the same 404', async () => {
    const good = signed();
    const expires = Number(good.searchParams.get('expires'));
    const sig = good.searchParams.get('sig')!;
    const variants: string[] = [
      `/runs/${run.runId}`, // guessed: no signature
      `/runs/${run.runId}?expires=${expires}&sig=${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`,
      `/runs/${run.runId}?expires=${expires + 1}&sig=${sig}`, // a later expiry
      `/runs/run-fedcba9876543210?expires=${expires}&sig=${sig}`, // another run that exists
      `/runs/run-0000000000000000?expires=${expires}&sig=${sig}`, // a run that does not exist
      `/runs/${run.runId}?expires=${expires}&sig=`,
      `/runs/..%2F..%2Fetc%2Fpasswd?expires=${expires}&sig=${sig}`,
      `/runs/%E0%A4%A?expires=${expires}&sig=${sig}`,
    ];
    // Signed properly, but for a run that is not stored: the same answer as a forgery.
    const missing = signed('run-0000000000000000');
    const { sig: old } = signRunPage(runPageKey(SECRET), run.runId, Math.floor(NOW / 1000) - 1);
    variants.push(`${missing.pathname}${missing.search}`);
    variants.push(`/runs/${run.runId}?expires=${Math.floor(NOW / 1000) - 1}&sig=${old}`); // expired
    const answers = await Promise.all(variants.map((path) => get(new URL(path, base))));
    const first = answers[0]!;
    for (const [i, res] of answers.entries()) {
      expect({ i, status: res.status }).toEqual({ i, status: 404 });
      expect(res.body).toBe(first.body);
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('www-authenticate')).toBeNull();
    }
    expect(first.body).not.toMatch(/acme|slug|run-/);
  });

  it('opens any run page with the admin password, and 404s a wrong one', async () => {
    const basic = (p: string) => ({
      authorization: `Basic ${Buffer.from(`admin:${p}`).toString('base64')}`,
    });
    const ok = await get(`${base}/runs/${run.runId}`, basic(PASSWORD));
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('Succeeded');
    const wrong = await get(`${base}/runs/${run.runId}`, basic('guess'));
    expect(wrong.status).toBe(404);
    const none = await get(`${base}/runs/run-0000000000000000`, basic(PASSWORD));
    expect(none.status).toBe(404);
    expect(none.body).toBe(wrong.body);
  });

  it('leaves other paths and methods to the other handlers', async () => {
    expect((await get(`${base}/runs-elsewhere`)).status).toBe(418);
    const post = await fetch(signed(), { method: 'POST' });
    expect(post.status).toBe(418);
  });
});
