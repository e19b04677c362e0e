import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createLogger } from '../../../../src/logger.js';
import { relayTarget, startWebhookRelay } from '../../../../src/hosts/app/webhook-relay.js';
import { startFakeSmee, type FakeSmee } from '../../../helpers/fake-smee.js';
import { sign } from '../../../helpers/webhooks.js';
import { WAIT_MS } from '../../../helpers/deadlines.js';
import { waitFor as waitUntil } from '../../../helpers/wait-for.js';

interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const log = createLogger({ level: 'silent' });
const waitFor = <T>(probe: () => T | undefined, what: string): Promise<T> =>
  waitUntil(probe, WAIT_MS, what);

describe('webhook relay (WEBHOOK_PROXY_URL)', () => {
  let smee: FakeSmee;
  let target: Server;
  let targetUrl: string;
  const received: Received[] = [];

  beforeEach(async () => {
    received.length = 0;
    smee = await startFakeSmee();
    target = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ url: req.url ?? '', headers: req.headers, body });
        // Answer a little later, as a busy endpoint does: the relay must not be counted on
        // before its answer is back (a race that once failed this test under load).
        setTimeout(() => res.writeHead(202).end(), 50);
      });
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const address = target.address();
    targetUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/github/webhooks`;
  });

  afterEach(async () => {
    await smee.close();
    target.closeAllConnections();
    await new Promise<void>((r) => target.close(() => r()));
  });

  it('forwards each delivery with its GitHub headers and a body that still matches the signature', async () => {
    const relay = startWebhookRelay({ source: smee.url, target: targetUrl, log, retryMs: 50 });
    try {
      await waitFor(() => smee.clients() || undefined, 'the relay to connect');
      const payload = { action: 'labeled', issue: { number: 7, title: "it's <b>&amp; ünïcode" } };
      const id = smee.relay('issues', payload, 'relay-secret');
      const [got] = await waitFor(() => (received.length ? received : undefined), 'a delivery');
      expect(got!.url).toBe('/api/github/webhooks');
      expect(got!.headers['x-github-event']).toBe('issues');
      expect(got!.headers['x-github-delivery']).toBe(id);
      expect(got!.headers['content-type']).toBe('application/json');
      expect(got!.headers['x-hub-signature-256']).toBe(sign(got!.body, 'relay-secret'));
      expect(JSON.parse(got!.body)).toEqual(payload);
      // smee's own fields are not headers of the forwarded request.
      expect(got!.headers.host).not.toBe('smee.io');
      expect(got!.headers.timestamp).toBeUndefined();
      // The relay counts a delivery once our endpoint's answer is back, which on a busy machine
      // is after the endpoint saw the request: wait for the count, do not race it.
      await waitFor(() => (relay.forwarded() > 0 ? true : undefined), 'the answer to the relay');
      expect(relay.forwarded()).toBe(1);
    } finally {
      await relay.stop();
    }
  });

  it('reads events split across chunks and CRLF lines, skips others, and reconnects', async () => {
    const relay = startWebhookRelay({ source: smee.url, target: targetUrl, log, retryMs: 50 });
    try {
      await waitFor(() => smee.clients() || undefined, 'the relay to connect');
      const message = JSON.stringify({ 'x-github-event': 'ping', body: { zen: 'a' } });
      smee.write('event: ping\r\ndata: {}\r\n\r\n'); // not a delivery
      smee.write(`data: ${message.slice(0, 10)}`);
      smee.write(`${message.slice(10)}\r\n\r\n`);
      await waitFor(() => (received.length === 1 ? true : undefined), 'the first delivery');
      expect(JSON.parse(received[0]!.body)).toEqual({ zen: 'a' });

      smee.drop();
      await waitFor(
        () => (smee.connections() >= 2 && smee.clients() ? true : undefined),
        'a reconnect',
      );
      smee.relay('issues', { n: 2 }, 's');
      await waitFor(
        () => (received.length === 2 ? true : undefined),
        'a delivery after reconnecting',
      );
      expect(JSON.parse(received[1]!.body)).toEqual({ n: 2 });
    } finally {
      await relay.stop();
    }
  });

  it('posts to loopback when the server listens on every address', () => {
    expect(relayTarget('0.0.0.0', 3000, '/api/github/webhooks')).toBe(
      'http://127.0.0.1:3000/api/github/webhooks',
    );
    expect(relayTarget('[::]', 3000, '/x')).toBe('http://127.0.0.1:3000/x');
    expect(relayTarget('127.0.0.1', 8080, '/x')).toBe('http://127.0.0.1:8080/x');
  });
});
