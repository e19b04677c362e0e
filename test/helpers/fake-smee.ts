/**
 * A local stand-in for a smee.io channel: `GET <url>` opens a Server-Sent Events stream; `relay`
 * sends one delivery in smee's shape (the request's headers as top-level fields, `body` as the
 * parsed JSON, `query`, `timestamp`) to every open stream, as smee.io does.
 */
import { createServer, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { sign } from './webhooks.js';

export interface FakeSmee {
  /** The channel URL (WEBHOOK_PROXY_URL). */
  url: string;
  /** Streams open now. */
  clients(): number;
  /** Streams opened so far. */
  connections(): number;
  /** Sends raw text to every open stream (SSE framing is the caller's). */
  write(text: string): void;
  /** Sends a signed GitHub delivery; returns its delivery id. */
  relay(event: string, payload: Record<string, unknown>, secret: string): string;
  /** Ends every open stream (the client should reconnect). */
  drop(): void;
  close(): Promise<void>;
}

export async function startFakeSmee(): Promise<FakeSmee> {
  const streams = new Set<ServerResponse>();
  let connections = 0;
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || !req.url?.startsWith('/channel')) {
      res.writeHead(404).end();
      return;
    }
    connections += 1;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.write('event: ready\ndata: {}\n\n: keep-alive\n\n');
    streams.add(res);
    req.on('close', () => streams.delete(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const write = (text: string): void => {
    for (const res of streams) res.write(text);
  };
  return {
    url: `http://127.0.0.1:${port}/channel/test-${randomUUID().slice(0, 8)}`,
    clients: () => streams.size,
    connections: () => connections,
    write,
    relay(event, payload, secret) {
      const deliveryId = randomUUID();
      const body = JSON.stringify(payload);
      const message = {
        host: 'smee.io',
        'content-type': 'application/json',
        'user-agent': 'GitHub-Hookshot/test',
        'x-github-event': event,
        'x-github-delivery': deliveryId,
        'x-hub-signature-256': sign(body, secret),
        body: payload,
        query: {},
        timestamp: Date.now(),
      };
      write(`id: ${Date.now()}\ndata: ${JSON.stringify(message)}\n\n`);
      return deliveryId;
    },
    drop() {
      for (const res of streams) res.end();
      streams.clear();
    },
    async close() {
      for (const res of streams) res.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
