/**
 * Probot's HTTP logger (pino-http) writes every request's headers at the default level. The
 * dashboard's basic-auth header, cookies and webhook signatures must not reach the log, whether
 * the password was right (a known secret) or wrong (a value no redactor knows).
 */
import { sign } from '../../helpers/webhooks.js';
import { startCaptured, type CapturedProcess } from './captured-log.js';
import { REDIS_URL, SECRET } from './harness.js';

const PASSWORD = 'dashboard-pw-5a1b9c';
const WRONG = 'guessed-pw-7d2e4f';
const COOKIE = 'session=cookie-value-3c8d0e';
interface HttpEntry {
  method?: string;
  url?: string;
  statusCode?: number;
}

const basic = (user: string, password: string): string =>
  Buffer.from(`${user}:${password}`).toString('base64');

describe('the HTTP log', () => {
  let proc: CapturedProcess | undefined;
  afterEach(async () => {
    await proc?.close();
    proc = undefined;
  });

  it('holds no credential header: basic auth, cookie or webhook signature', async () => {
    proc = await startCaptured({
      kind: 'serve',
      redisUrl: REDIS_URL,
      webhookSecret: SECRET,
      adminPassword: PASSWORD,
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

    const log = proc.text();
    // The requests were logged, headers and all…
    const requests = log
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { name?: string; req?: HttpEntry; res?: HttpEntry })
      .filter((entry) => entry.name === 'http')
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
