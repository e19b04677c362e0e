/**
 * The proxy's own answers: a short plain-text body that names the host and the reason, so the
 * line a package manager prints ("403 Forbidden: … not on the allowlist") explains itself.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

export function refusalText(target: string, reason: string): string {
  return `autofix egress proxy refused ${target}: ${reason}\n`;
}

/** Writes a whole HTTP/1.1 response on a raw socket (CONNECT, client errors) and closes it. */
export function writeRawRefusal(socket: Duplex, status: number, text: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = Buffer.from(text);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${body.length}\r\n` +
      'Connection: close\r\n\r\n' +
      text,
  );
}

export function sendRefusal(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    connection: 'close',
  });
  res.end(text);
}
