/**
 * HEAD answered like GET without a body (RFC 9110 §9.3.2) on every route the server answers GET
 * on (`/`, `/healthz`, `/readyz`, `/metrics`, the status and setup pages, Bull Board, …): uptime
 * checks and `curl -I` send HEAD, and each route answering 404 to it looked like a dead server.
 * The request is handed on as GET before any handler sees it; Node's response already knows it
 * answers a HEAD and sends no body, whatever a handler writes.
 */
import type { IncomingMessage, Server } from 'node:http';

const WAS_HEAD = Symbol('autofix.wasHead');

/** Must run before the server's own `request` listener (it is prepended). */
export function answerHeadLikeGet(server: Server): void {
  server.prependListener('request', (req: IncomingMessage) => {
    if (req.method !== 'HEAD') return;
    req.method = 'GET';
    (req as IncomingMessage & { [WAS_HEAD]?: true })[WAS_HEAD] = true;
  });
}

/** The method the client sent (HEAD, for a request handed on as GET). */
export function sentMethod(req: IncomingMessage): string | undefined {
  return (req as IncomingMessage & { [WAS_HEAD]?: true })[WAS_HEAD] ? 'HEAD' : req.method;
}
