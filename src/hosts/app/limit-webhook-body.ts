/**
 * @octokit/webhooks' Node middleware (mounted first by Probot's Server) reads the whole request
 * body into memory before it checks the signature: a 300 MB POST cost 2.3 GB of RSS. It skips its
 * own reading when `request.body` is already a string (@octokit/webhooks 14, `getPayload`), so
 * the body is read here first, within GitHub's own cap, and anything larger is refused with 413
 * while it arrives. The signature is still checked by the middleware, on the same text.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Probot } from 'probot';
import type { DeliveryActivity } from '../../intake/deliveries-first.js';
import { readCappedBody } from './read-capped-body.js';

/** GitHub caps webhook payloads at 25 MB and does not deliver larger events. */
export const MAX_WEBHOOK_BYTES = 25 * 1024 * 1024;

type NodeMiddleware = Awaited<ReturnType<Probot['getNodeMiddleware']>>;

/** The middleware's decoding (`getPayload`): UTF-8, lenient, a BOM dropped. */
const decoder = new TextDecoder('utf-8', { fatal: false });

/** A loop, not `/\/+$/`: that regex is quadratic on a URL of many slashes. */
function withoutSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
  return end === 0 ? '/' : path.slice(0, end);
}

/** The middleware's own route test: a POST whose path, without trailing slashes, is `path`. */
function isWebhookPost(req: IncomingMessage, path: string): boolean {
  if (req.method !== 'POST') return false;
  try {
    return (
      new URL(withoutSlashes(req.url ?? ''), 'http://localhost').pathname === withoutSlashes(path)
    );
  } catch {
    return false; // the middleware answers 422 itself
  }
}

/** How long, and how many more bytes, a refused sender gets to read the 413 before we cut. */
const LINGER_MS = 2000;
const LINGER_BYTES = 1024 * 1024;

/**
 * The answer, then a lingering close: our side ends right after the 413 (the sender reads it,
 * then our FIN, and stops writing), and what still arrives meanwhile is thrown away, not kept,
 * up to a small limit, after which we stop reading. Destroying at once would reset a connection the sender is still writing
 * to, and a reset makes it drop the 413 unread.
 */
function refuse(req: IncomingMessage, res: ServerResponse, status: number, error: string): true {
  const body = JSON.stringify({ error });
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  const socket = req.socket;
  res.end(body, () => {
    socket.end();
    const cut = setTimeout(() => socket.destroy(), LINGER_MS).unref();
    socket.once('close', () => clearTimeout(cut));
    let discarded = 0;
    req.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      // Enough: stop reading. The sender stalls on a full window, reads our answer and FIN,
      // and gives up; the timer cuts a sender that does not.
      if (discarded > LINGER_BYTES) req.pause();
    });
    req.resume();
  });
  return true;
}

function refuseTooLarge(req: IncomingMessage, res: ServerResponse, maxBytes: number): true {
  return refuse(
    req,
    res,
    413,
    `Payload Too Large: webhook bodies are limited to ${maxBytes} bytes (GitHub's own cap)`,
  );
}

/**
 * GitHub sends a unique `X-GitHub-Delivery` with every delivery; runs are deduplicated by it. A
 * delivery without one (or with a blank one) would share the key '' with every other such
 * delivery, so it is refused before anything else is read.
 */
function hasDeliveryId(req: IncomingMessage): boolean {
  const id = req.headers['x-github-delivery'];
  return typeof id === 'string' && id.trim() !== '';
}

/** What the server tells admission about deliveries (deliveries-first.ts). */
export type DeliveryTracker = Pick<DeliveryActivity, 'begin' | 'end'>;

function limitMiddleware(
  middleware: NodeMiddleware,
  path: string,
  maxBytes: number,
  activity?: DeliveryTracker,
): NodeMiddleware {
  return async (
    req: IncomingMessage,
    res: ServerResponse,
    next?: Parameters<NodeMiddleware>[2],
  ): Promise<boolean> => {
    if (!isWebhookPost(req, path)) return (await middleware(req, res, next)) as boolean;
    if (activity) {
      activity.begin();
      // 'close' comes once, answered or not (a sender that went away mid-body included).
      res.once('close', activity.end);
    }
    if (!hasDeliveryId(req))
      return refuse(req, res, 400, 'Bad Request: the X-GitHub-Delivery header is missing or empty');
    if (Number(req.headers['content-length']) > maxBytes) return refuseTooLarge(req, res, maxBytes);
    const read = await readCappedBody(req, maxBytes);
    if (!read.ok) {
      if (read.reason === 'too-large') return refuseTooLarge(req, res, maxBytes);
      req.socket.destroy();
      return true;
    }
    (req as IncomingMessage & { body?: string }).body = decoder.decode(read.body);
    return (await middleware(req, res, next)) as boolean;
  };
}

/**
 * Probot whose webhook middleware reads at most `maxBytes` of a delivery, and tells `activity`
 * when each delivery arrives and is answered.
 */
export function limitWebhookBody(
  Base: typeof Probot,
  maxBytes: number = MAX_WEBHOOK_BYTES,
  activity?: DeliveryTracker,
): typeof Probot {
  return class extends Base {
    override async getNodeMiddleware(
      options: Parameters<Probot['getNodeMiddleware']>[0] = {},
    ): Promise<NodeMiddleware> {
      const middleware = await super.getNodeMiddleware(options);
      return limitMiddleware(middleware, options.path ?? this.webhookPath, maxBytes, activity);
    }
  };
}
