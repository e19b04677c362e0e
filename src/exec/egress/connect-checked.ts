/**
 * Opens a TCP connection to one of the addresses the policy already checked, in order, never to
 * the host name: a second DNS answer (rebinding) cannot move the connection somewhere else.
 */
import { connect, isIP, type Socket } from 'node:net';

export function connectChecked(
  addresses: readonly string[],
  port: number,
  timeoutMs: number,
): Promise<Socket> {
  return new Promise((resolve, reject) => {
    let lastError: Error = new Error('no address to connect to');
    const attempt = (index: number) => {
      const address = addresses[index];
      if (address === undefined) {
        reject(lastError);
        return;
      }
      // `host` is an IP literal here, so net.connect does no lookup of its own.
      const socket = connect({ host: address, port, family: isIP(address) });
      const timer = setTimeout(() => {
        socket.destroy(new Error(`connect to ${address} port ${port} timed out`));
      }, timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(socket);
      });
      socket.once('error', (err) => {
        clearTimeout(timer);
        lastError = err;
        socket.destroy();
        attempt(index + 1);
      });
    };
    attempt(0);
  });
}
