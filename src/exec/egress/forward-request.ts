/**
 * Forwards one absolute-form plain-HTTP request (`GET http://host/path`) over a socket already
 * connected to a checked address, and streams the answer back. Hop-by-hop headers stay on their
 * hop; the upstream connection is used for this one request only.
 */
import {
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import { sendRefusal } from './refusal.js';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function endToEnd(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const listed = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  const result: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || listed.includes(name)) continue;
    result[name] = value;
  }
  return result;
}

export function forwardRequest(
  req: IncomingMessage,
  res: ServerResponse,
  socket: Socket,
  target: { path: string; hostHeader: string },
  idleMs: number,
  onClose: (bytes: number) => void,
): void {
  let bytes = 0;
  socket.setTimeout(idleMs, () => socket.destroy(new Error('upstream idle timeout')));
  const upstream = request({
    createConnection: () => socket,
    // The checked address again, for an http module that ignores createConnection (request
    // interceptors in tests do): never the name, which could resolve elsewhere by now.
    ...(socket.remoteAddress ? { host: socket.remoteAddress, port: socket.remotePort } : {}),
    method: req.method,
    path: target.path,
    setHost: false,
    headers: { ...endToEnd(req.headers), host: target.hostHeader, connection: 'close' },
  });
  upstream.on('response', (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
    answer.on('data', (chunk: Buffer) => (bytes += chunk.length));
    answer.pipe(res);
    answer.on('error', () => res.destroy());
  });
  upstream.on('error', (err) => {
    sendRefusal(res, 502, `autofix egress proxy: upstream failed: ${err.message}\n`);
  });
  req.on('data', (chunk: Buffer) => (bytes += chunk.length));
  req.pipe(upstream);
  res.on('close', () => {
    upstream.destroy();
    socket.destroy();
    onClose(bytes);
  });
}
