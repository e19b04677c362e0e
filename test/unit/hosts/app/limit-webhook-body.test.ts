/**
 * The webhook middleware of a real Probot, behind the body limit, on a real HTTP server. A small
 * cap keeps the bodies small; the 100 MB case against the compiled server is in
 * test/integration/app/webhook-body-limit.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Probot } from 'probot';
import { createLogger } from '../../../../src/logger.js';
import { limitWebhookBody } from '../../../../src/hosts/app/limit-webhook-body.js';
import {
  createDeliveryActivity,
  type DeliveryActivity,
} from '../../../../src/intake/deliveries-first.js';
import { sign } from '../../../helpers/webhooks.js';
import { waitFor } from '../../../helpers/wait-for.js';
import { postBody } from '../../../integration/app/post-body.js';

const SECRET = 'body-limit-secret';
const CAP = 64 * 1024;
const WEBHOOK_PATH = '/api/github/webhooks';

function headersFor(body: string, event = 'ping'): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-github-event': event,
    'x-github-delivery': 'd-1',
    'x-hub-signature-256': sign(body, SECRET),
  };
}

describe('limitWebhookBody', () => {
  let server: Server;
  let url: string;
  let received: unknown[];
  let activity: DeliveryActivity;

  beforeEach(async () => {
    received = [];
    activity = createDeliveryActivity();
    const LimitedProbot = limitWebhookBody(Probot, CAP, activity);
    const probot = new LimitedProbot({
      githubToken: 'unused',
      secret: SECRET,
      log: createLogger({ level: 'silent' }) as never,
    });
    probot.onAny((event) => void received.push(event.payload));
    const middleware = await probot.getNodeMiddleware();
    server = createServer((req, res) => {
      void middleware(req, res).then((handled) => {
        if (!handled) res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('still verifies and delivers a signed body under the cap, non-ASCII text included', async () => {
    const body = JSON.stringify({ zen: 'Ünïcødé — 🚀 keeps its signature', pad: 'x'.repeat(1000) });
    const res = await fetch(`${url}${WEBHOOK_PATH}`, {
      method: 'POST',
      headers: headersFor(body),
      body,
    });
    expect(res.status).toBe(200);
    expect(received).toEqual([JSON.parse(body)]);
  });

  it('still refuses a body whose signature does not match', async () => {
    const body = JSON.stringify({ zen: 'forged' });
    const res = await fetch(`${url}${WEBHOOK_PATH}`, {
      method: 'POST',
      headers: { ...headersFor(body), 'x-hub-signature-256': sign('{}', SECRET) },
      body,
    });
    expect(res.status).toBe(400);
    expect(received).toEqual([]);
  });

  it.each([
    ['with content-length', false],
    ['chunked', true],
  ])('answers 413 to a body over the cap (%s) and hangs up before the rest', async (_, chunked) => {
    const total = 64 * 1024 * 1024;
    const result = await postBody(`${url}${WEBHOOK_PATH}`, {
      bytes: total,
      chunked,
      headers: headersFor('{}'),
    });
    expect(result.status).toBe(413);
    expect(result.text).toContain('Payload Too Large');
    // The server stopped reading: most of the body never left the client.
    expect(result.sentBytes).toBeLessThan(total / 2);
    expect(received).toEqual([]);
  });

  it.each([
    ['a trailing slash', `${WEBHOOK_PATH}/`],
    ['a query string', `${WEBHOOK_PATH}?x=1`],
  ])('applies the cap to the webhook path with %s', async (_, path) => {
    const result = await postBody(`${url}${path}`, {
      bytes: 4 * CAP,
      chunked: true,
      headers: headersFor('{}'),
    });
    expect(result.status).toBe(413);
  });

  it('answers 413 to a body just one byte over the cap and takes one exactly at it', async () => {
    const at = `{"pad":"${'x'.repeat(CAP - 10)}"}`;
    expect(Buffer.byteLength(at)).toBe(CAP);
    const ok = await fetch(`${url}${WEBHOOK_PATH}`, {
      method: 'POST',
      headers: headersFor(at),
      body: at,
    });
    expect(ok.status).toBe(200);
    const over = `{"pad":"${'x'.repeat(CAP - 9)}"}`;
    const result = await postBody(`${url}${WEBHOOK_PATH}`, {
      bytes: Buffer.byteLength(over),
      chunked: true,
      headers: headersFor(over),
    });
    expect(result.status).toBe(413);
  });

  it('survives a sender that hangs up mid-body and keeps serving', async () => {
    const { request } = await import('node:http');
    await new Promise<void>((resolve) => {
      const req = request(`${url}${WEBHOOK_PATH}`, { method: 'POST', headers: headersFor('{}') });
      req.on('error', () => resolve());
      req.write('{"half": "');
      setTimeout(() => req.destroy(), 50); // a scripted sender: hangs up mid-body
      req.on('close', () => resolve());
    });
    const body = JSON.stringify({ zen: 'after' });
    const res = await fetch(`${url}${WEBHOOK_PATH}`, {
      method: 'POST',
      headers: headersFor(body),
      body,
    });
    expect(res.status).toBe(200);
  });

  it('leaves other paths to the other handlers without reading their bodies', async () => {
    const result = await postBody(`${url}/elsewhere`, { bytes: 4 * CAP, chunked: true });
    expect(result.status).toBe(404);
  });

  it('counts a delivery in flight from its arrival until it is answered or its sender hangs up', async () => {
    const { request } = await import('node:http');
    const body = JSON.stringify({ zen: 'counted' });
    const answered = new Promise<number | undefined>((resolve) => {
      const req = request(`${url}${WEBHOOK_PATH}`, { method: 'POST', headers: headersFor(body) });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      });
      req.write(body.slice(0, 5));
      void waitFor(() => activity.inFlight() === 1, undefined, 'the delivery in flight').then(() =>
        req.end(body.slice(5)),
      );
    });
    expect(await answered).toBe(200);
    await waitFor(() => activity.inFlight() === 0, undefined, 'the answered delivery');

    await new Promise<void>((resolve) => {
      const req = request(`${url}${WEBHOOK_PATH}`, { method: 'POST', headers: headersFor('{}') });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.write('{"half": "');
      void waitFor(() => activity.inFlight() === 1, undefined, 'the second delivery').then(() =>
        req.destroy(),
      );
    });
    await waitFor(() => activity.inFlight() === 0, undefined, 'the abandoned delivery');
  });

  it('counts no request to another path', async () => {
    const res = await fetch(`${url}/elsewhere`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    expect(activity.inFlight()).toBe(0);
    await expect(activity.quiet()).resolves.toBeUndefined(); // nothing was ever counted
  });
});
