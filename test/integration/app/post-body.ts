/**
 * POSTs a large generated body the way an attacker would: over a raw socket, as fast as the
 * server takes it, either announced with `content-length` or chunked (no length up front).
 * Records the answer, how much of the body the server let through before the connection ended,
 * and how it ended. A raw socket, not node:http: Node's client gives up on an early answer once
 * its own write fails, so it would not show what the server actually said.
 */
import { connect } from 'node:net';

export interface PostResult {
  /** Undefined when the connection ended without an answer. */
  status?: number;
  /** The answer's body (after the headers). */
  text: string;
  /** Bytes of the body handed to the socket before writing stopped. */
  sentBytes: number;
  /** The socket error, if any (EPIPE / ECONNRESET once the server hangs up). */
  error?: string;
}

const CHUNK = Buffer.alloc(64 * 1024, 'a');

export function postBody(
  url: string,
  options: { bytes: number; chunked: boolean; headers?: Record<string, string> },
): Promise<PostResult> {
  const target = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({
      host: target.hostname,
      port: Number(target.port),
      allowHalfOpen: true,
    });
    let sentBytes = 0;
    let stopped = false;
    const received: Buffer[] = [];
    let error: string | undefined;
    const headers = {
      host: target.host,
      'content-type': 'application/json',
      ...(options.chunked
        ? { 'transfer-encoding': 'chunked' }
        : { 'content-length': String(options.bytes) }),
      ...options.headers,
    };
    const head =
      `POST ${target.pathname}${target.search} HTTP/1.1\r\n` +
      Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('') +
      '\r\n';

    const pump = (): void => {
      while (!stopped) {
        const left = options.bytes - sentBytes;
        if (left <= 0) {
          socket.write(options.chunked ? '0\r\n\r\n' : '');
          return;
        }
        const chunk = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
        sentBytes += chunk.length;
        const framed = options.chunked
          ? Buffer.concat([
              Buffer.from(`${chunk.length.toString(16)}\r\n`),
              chunk,
              Buffer.from('\r\n'),
            ])
          : chunk;
        if (!socket.write(framed)) {
          socket.once('drain', pump);
          return;
        }
      }
    };
    socket.on('connect', () => {
      socket.write(head);
      pump();
    });
    socket.on('data', (b: Buffer) => received.push(b));
    // The server's FIN: it has said all it will say; stop writing.
    socket.on('end', () => {
      stopped = true;
      socket.end();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      error ??= err.code ?? err.message;
      stopped = true;
    });
    socket.on('close', () => {
      stopped = true;
      const text = Buffer.concat(received).toString('utf8');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      const bodyAt = text.indexOf('\r\n\r\n');
      resolve({
        ...(status ? { status: Number(status) } : {}),
        text: bodyAt >= 0 ? text.slice(bodyAt + 4) : '',
        sentBytes,
        ...(error ? { error } : {}),
      });
    });
  });
}
