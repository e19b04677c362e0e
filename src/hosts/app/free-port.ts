import { createServer } from 'node:net';

/**
 * A port nobody listens on right now. Probot's Server treats port 0 as "use 3000", so "any free
 * port" (tests, benchmarks) has to be resolved before it starts.
 */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
