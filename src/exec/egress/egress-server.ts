/**
 * The HTTP server of the egress proxy: `CONNECT host:port` becomes a tunnel and `GET http://…` a
 * forwarded request, each to a connection `openUpstream` allowed; a malformed request, an
 * oversized head or a protocol upgrade gets its refusal and lands in the report.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { EgressRecorder } from './egress-report.js';
import { forwardRequest } from './forward-request.js';
import { openTunnel } from './open-tunnel.js';
import { openUpstream, type Upstreams } from './open-upstream.js';
import { parseAbsoluteTarget, parseConnectTarget } from './proxy-target.js';
import { refusalText, sendRefusal, writeRawRefusal } from './refusal.js';

/** A request head (request line and headers) larger than this is refused with 431. */
export const MAX_HEAD_BYTES = 64 * 1024;
const MALFORMED = '(malformed request)';

export interface EgressServerOptions {
  up: Upstreams;
  recorder: EgressRecorder;
  idleMs: number;
  maxConnections: number;
  maxConnectionMs: number;
}

export function createEgressServer(o: EgressServerOptions): Server {
  // A proxy takes the target from the request line; some clients' CONNECT has no Host header.
  const server = createServer({
    maxHeaderSize: MAX_HEAD_BYTES,
    requestTimeout: 0,
    requireHostHeader: false,
  });
  server.headersTimeout = 30_000;
  server.timeout = o.idleMs;
  server.keepAliveTimeout = 5_000;
  server.maxConnections = o.maxConnections;
  server.on('connection', (socket: Socket) => {
    o.up.sockets.add(socket);
    const lifetime = setTimeout(() => socket.destroy(), o.maxConnectionMs);
    lifetime.unref();
    socket.on('close', () => {
      clearTimeout(lifetime);
      o.up.sockets.delete(socket);
    });
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) =>
    refuseClientError(o.up, err, socket),
  );
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) =>
    tunnel(o, req, client, head),
  );
  server.on('request', (req: IncomingMessage, res: ServerResponse) => forward(o, req, res));
  server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    const reason = 'protocol upgrades (WebSocket) are not proxied';
    o.up.blocked(MALFORMED, 0, reason);
    writeRawRefusal(socket, 501, refusalText(JSON.stringify(req.url ?? ''), reason));
  });
  return server;
}

function refuseClientError(up: Upstreams, err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const reason = tooLarge
    ? `request head larger than ${MAX_HEAD_BYTES} bytes`
    : 'malformed request';
  up.blocked(MALFORMED, 0, reason);
  writeRawRefusal(socket, tooLarge ? 431 : 400, refusalText('request', reason));
}

function tunnel(o: EgressServerOptions, req: IncomingMessage, client: Duplex, head: Buffer): void {
  client.on('error', () => client.destroy());
  const target = parseConnectTarget(req.url ?? '');
  if ('error' in target) {
    o.up.blocked(MALFORMED, 0, target.error);
    writeRawRefusal(client, 400, refusalText(JSON.stringify(req.url ?? ''), target.error));
    return;
  }
  const { host, port } = target;
  const refuse = (status: number, text: string) => writeRawRefusal(client, status, text);
  void openUpstream(o.up, host, port, refuse, () => client.destroyed).then((upstream) => {
    if (!upstream) return;
    openTunnel(client, upstream, head, o.idleMs, (bytes) => {
      o.recorder.allowed(host, port, bytes);
      o.up.log?.debug({ host, port, bytes }, 'egress tunnel closed');
    });
  });
}

function forward(o: EgressServerOptions, req: IncomingMessage, res: ServerResponse): void {
  const target = parseAbsoluteTarget(req.url ?? '');
  if ('error' in target) {
    o.up.blocked(MALFORMED, 0, target.error);
    sendRefusal(res, 400, refusalText(JSON.stringify(req.url ?? ''), target.error));
    return;
  }
  const { host, port } = target;
  const refuse = (status: number, text: string) => sendRefusal(res, status, text);
  void openUpstream(o.up, host, port, refuse, () => res.destroyed).then((upstream) => {
    if (!upstream) return;
    forwardRequest(req, res, upstream, target, o.idleMs, (bytes) => {
      o.recorder.allowed(host, port, bytes);
      o.up.log?.debug({ host, port, bytes }, 'egress request done');
    });
  });
}
