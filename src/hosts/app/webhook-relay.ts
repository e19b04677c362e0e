/**
 * WEBHOOK_PROXY_URL support: reads a smee.io-style channel (Server-Sent Events, one JSON message
 * per delivery: the request's headers, `body` and `query`) and POSTs each delivery to our own
 * webhook endpoint, as smee-client does. Our own ~100 lines instead of smee-client: Probot loads
 * that package on demand and, once installed, its setup mode would create public smee.io
 * channels by itself; a self-hosted bot should only relay through a channel the operator chose.
 *
 * Only GitHub's headers are forwarded (event, delivery id, signatures, hook ids, user agent); the
 * signature is checked by the webhook endpoint as for any delivery. Deliveries are forwarded one
 * at a time, in order; the stream reconnects with backoff (1 s doubling to 30 s) until stopped.
 */
import type { Logger } from '../../logger.js';

const FORWARDED_HEADERS = [
  'user-agent',
  'x-github-event',
  'x-github-delivery',
  'x-github-hook-id',
  'x-github-hook-installation-target-id',
  'x-github-hook-installation-target-type',
  'x-hub-signature',
  'x-hub-signature-256',
];

export interface WebhookRelay {
  /** Deliveries forwarded so far (whatever the endpoint answered). */
  forwarded(): number;
  stop(): Promise<void>;
}

interface SseEvent {
  event: string;
  data: string;
}

/** Splits an SSE stream into events (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
        event = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue; // comment (keep-alive)
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
  }
}

/** Where the relay posts: the server's own webhook endpoint, over loopback when it binds all. */
export function relayTarget(host: string, port: number, path: string): string {
  const h = host.replace(/^\[|\]$/g, '');
  const local = h === '0.0.0.0' || h === '::' || h === '' ? '127.0.0.1' : host;
  return `http://${local}:${port}${path}`;
}

export function startWebhookRelay(options: {
  /** WEBHOOK_PROXY_URL. */
  source: string;
  /** Full URL of our webhook endpoint. */
  target: string;
  log: Logger;
  /** First reconnect delay (doubles up to 30 s). */
  retryMs?: number;
}): WebhookRelay {
  const { source, target, log } = options;
  const controller = new AbortController();
  const { signal } = controller;
  // The channel URL lets anyone read the deliveries: log its origin only.
  const where = new URL(source).origin;
  let forwarded = 0;

  const forward = async (raw: string): Promise<void> => {
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    if (!message || typeof message !== 'object' || !('body' in message)) return;
    const fields = message as Record<string, unknown>;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    for (const name of FORWARDED_HEADERS) {
      if (typeof fields[name] === 'string') headers[name] = fields[name];
    }
    const body = typeof fields.body === 'string' ? fields.body : JSON.stringify(fields.body);
    try {
      const res = await fetch(target, { method: 'POST', headers, body, signal });
      await res.arrayBuffer();
      forwarded += 1;
      log.info(
        { event: headers['x-github-event'], delivery: headers['x-github-delivery'] },
        `webhook relay: forwarded, answered ${res.status}`,
      );
    } catch (err) {
      if (!signal.aborted) log.warn({ err }, 'webhook relay: could not forward a delivery');
    }
  };

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });

  const firstDelay = options.retryMs ?? 1000;
  const loop = (async () => {
    let delay = firstDelay;
    while (!signal.aborted) {
      try {
        const res = await fetch(source, { headers: { accept: 'text/event-stream' }, signal });
        if (!res.ok || !res.body) throw new Error(`the channel answered ${res.status}`);
        log.info(`webhook relay: connected to ${where}, forwarding to ${target}`);
        delay = firstDelay;
        for await (const event of sseEvents(res.body)) {
          if (event.event === 'message') await forward(event.data);
        }
        if (!signal.aborted) log.warn(`webhook relay: ${where} closed the stream; reconnecting`);
      } catch (err) {
        if (signal.aborted) break;
        log.warn({ err }, `webhook relay: cannot read ${where}; retrying in ${delay} ms`);
      }
      await sleep(delay);
      delay = Math.min(delay * 2, 30_000);
    }
  })();

  return {
    forwarded: () => forwarded,
    async stop() {
      controller.abort();
      await loop;
    },
  };
}
