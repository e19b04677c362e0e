/**
 * The HTTP log (Probot's pino-http through hosts/app/server-log.ts): one line per request at
 * info (method, url, status, ms), the headers at debug only (issue #37: ~33 lines a request on a
 * terminal). At debug, the dashboard's basic-auth header, cookies and webhook signatures must not
 * reach the log, whether the password was right (a known secret) or wrong (a value no redactor
 * knows).
 */
import { sign } from '../../helpers/webhooks.js';
import { startCaptured, type CapturedProcess } from './captured-log.js';
import { REDIS_URL, SECRET, waitFor } from './harness.js';

const PASSWORD = 'dashboard-pw-5a1b9c';
const WRONG = 'guessed-pw-7d2e4f';
const COOKIE = 'session=cookie-value-3c8d0e';
interface HttpEntry {
  method?: string;
  url?: string;
  statusCode?: number;
  status?: number;
  ms?: number;
}
interface LogEntry {
  name?: string;
  level?: number;
  msg?: string;
  http?: HttpEntry;
  req?: HttpEntry;
  res?: HttpEntry;
}
const entries = (text: string): LogEntry[] =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as LogEntry);

const basic = (user: string, password: string): string =>
  Buffer.from(`${user}:${password}`).toString('base64');

describe('the HTTP log', () => {
  let proc: CapturedProcess | undefined;
  afterEach(async () => {
    await proc?.close();
    proc = undefined;
  });

  it('at info: one line per request, no header', async () => {
    proc = await startCaptured({ kind: 'serve', redisUrl: REDIS_URL, webhookSecret: SECRET });
    const url = proc.app!.url;
    expect((await fetch(`${url}/healthz`, { headers: { 'x-probe': 'probe-9f3e' } })).status).toBe(
      200,
    );
    const http = await waitForEntries(proc, 1);
    expect(http).toHaveLength(1);
    expect(http[0]).toMatchObject({
      level: 30,
      http: { method: 'GET', url: '/healthz', status: 200 },
    });
    expect(http[0]!.msg).toMatch(/^GET \/healthz 200 - \d+ms$/);
    expect(typeof http[0]!.http!.ms).toBe('number');
    expect(proc.text()).not.toContain('probe-9f3e');
    expect(proc.text()).not.toContain('"headers"');
  });

  it('on a terminal: that request is one line', async () => {
    proc = await startCaptured({
      kind: 'serve',
      redisUrl: REDIS_URL,
      webhookSecret: SECRET,
      log: { pretty: true },
    });
    const before = proc.text().split('\n').length;
    expect((await fetch(`${proc.app!.url}/healthz`)).status).toBe(200);
    await waitFor(() => (proc!.text().includes('/healthz 200') ? true : undefined));
    const lines = proc
      .text()
      .split('\n')
      .slice(before - 1)
      .filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/INFO \(http\): GET \/healthz 200 - \d+ms$/);
  });

  it('at debug: the headers, without a credential header (basic auth, cookie, webhook signature)', async () => {
    proc = await startCaptured({
      kind: 'serve',
      redisUrl: REDIS_URL,
      webhookSecret: SECRET,
      adminPassword: PASSWORD,
      log: { level: 'debug' },
    });
    const url = proc.app!.url;
    const right = await fetch(`${url}/admin/queues`, {
      headers: { authorization: `Basic ${basic('admin', PASSWORD)}`, cookie: COOKIE },
    });
    expect(right.status).toBe(200);
    const wrong = await fetch(`${url}/admin/queues`, {
      headers: { authorization: `Basic ${basic('admin', WRONG)}`, 'proxy-authorization': WRONG },
    });
    expect(wrong.status).toBe(401);
    const body = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });
    const signature = sign(body, SECRET);
    const legacySignature = 'sha1=0123456789abcdef0123456789abcdef01234567';
    const delivery = await fetch(`${url}/api/github/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'ping',
        'x-github-delivery': 'delivery-http-log',
        'x-hub-signature-256': signature,
        'x-hub-signature': legacySignature,
        cookie: COOKIE,
      },
      body,
    });
    expect(delivery.status).toBe(200);

    // The requests were logged (when each response ended), headers and all…
    const log = await waitFor(() =>
      entries(proc!.text()).filter((e) => e.req).length >= 3 ? proc!.text() : undefined,
    );
    const requests = entries(log)
      .filter((entry) => entry.name === 'http' && entry.req)
      .map((entry) => `${entry.req?.method} ${entry.req?.url} ${entry.res?.statusCode}`);
    expect(requests).toEqual([
      'GET /admin/queues 200',
      'GET /admin/queues 401',
      'POST /api/github/webhooks 200',
    ]);
    expect(log).toContain('"x-github-delivery":"delivery-http-log"');
    // …without a credential in any form.
    for (const secret of [
      PASSWORD,
      WRONG,
      basic('admin', PASSWORD),
      basic('admin', WRONG),
      'cookie-value-3c8d0e',
      signature,
      signature.slice('sha256='.length),
      legacySignature.slice('sha1='.length),
    ]) {
      expect(log).not.toContain(secret);
    }
    expect(log).toContain('"authorization":"[redacted]"');
  });
});

/** The log's request lines at info, once there are `count` of them. */
async function waitForEntries(proc: CapturedProcess, count: number): Promise<LogEntry[]> {
  return waitFor(() => {
    const http = entries(proc.text()).filter((e) => e.name === 'http');
    return http.length >= count ? http : undefined;
  });
}
