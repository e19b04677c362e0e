/**
 * Joins an accepted CONNECT to its upstream socket: "200 Connection Established", then bytes both
 * ways until either side closes or goes quiet for `idleMs`. Counts the bytes for the report.
 */
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export function openTunnel(
  client: Duplex & { setTimeout?: Socket['setTimeout'] },
  upstream: Socket,
  head: Buffer,
  idleMs: number,
  onClose: (bytes: number) => void,
): void {
  let bytes = head.length;
  let closed = false;
  const finish = () => {
    if (closed) return;
    closed = true;
    client.destroy();
    upstream.destroy();
    onClose(bytes);
  };
  client.on('close', finish);
  upstream.on('close', finish);
  upstream.on('error', finish);
  client.on('error', finish);
  client.setTimeout?.(idleMs, finish);
  upstream.setTimeout(idleMs, finish);
  client.on('data', (chunk: Buffer) => (bytes += chunk.length));
  upstream.on('data', (chunk: Buffer) => (bytes += chunk.length));
  if (head.length > 0) upstream.write(head);
  client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
  client.pipe(upstream);
  upstream.pipe(client);
}
