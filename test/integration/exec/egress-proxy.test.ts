import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EgressPolicy } from '../../../src/exec/egress/egress-policy.js';
import { startEgressProxy, type EgressProxy } from '../../../src/exec/egress/egress-proxy.js';
import { WAIT_MS } from '../../helpers/deadlines.js';
import { waitFor } from '../../helpers/wait-for.js';

/** An upstream on 127.0.0.1 that counts every TCP connection it sees. */
async function startUpstream(): Promise<{
  server: Server;
  port: number;
  connections: () => number;
}> {
  let connections = 0;
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'text/plain');
    res.end(`upstream saw ${req.method ?? ''} ${req.url ?? ''} host=${req.headers.host ?? ''}`);
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => connections };
}

/** Sends raw bytes to the proxy's socket and collects everything until the proxy closes. */
function rawExchange(socketPath: string, data: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ path: socketPath });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString()));
    socket.write(data);
  });
}

/** CONNECT host:port, then (when the proxy says 200) one GET through the tunnel. */
function tunnelGet(socketPath: string, authority: string): Promise<{ head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ path: socketPath });
    let buffer = Buffer.alloc(0);
    let head: string | undefined;
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (head !== undefined) return;
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      head = buffer.subarray(0, end).toString();
      buffer = buffer.subarray(end + 4);
      if (head.startsWith('HTTP/1.1 200'))
        socket.write(
          `GET /through-tunnel HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`,
        );
    });
    socket.on('close', () => resolve({ head: head ?? '', body: buffer.toString() }));
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
  });
}

/** An absolute-form proxy request, as curl or npm sends one for http:// URLs. */
function proxyGet(socketPath: string, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path: url, headers: { host: new URL(url).host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('startEgressProxy', () => {
  let dir: string;
  let socketPath: string;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let proxy: EgressProxy | undefined;
  let lookups: string[];
  const answers: Record<string, string[]> = {};

  const lookup = (host: string) => {
    lookups.push(host);
    const answer = answers[host];
    return answer ? Promise.resolve(answer) : Promise.reject(new Error(`ENOTFOUND ${host}`));
  };

  async function start(policy: Partial<EgressPolicy>, extra: { idleTimeoutMs?: number } = {}) {
    proxy = await startEgressProxy({
      socketPath,
      policy: { allow: [], trusted: [], deny: [], ...policy },
      lookup,
      localAddresses: [],
      ...extra,
    });
    return proxy;
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'afx-egress-'));
    socketPath = join(dir, 'proxy.sock');
    upstream = await startUpstream();
    lookups = [];
    answers['upstream.test'] = ['127.0.0.1'];
  });

  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
    await new Promise((resolve) => upstream.server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('tunnels CONNECT to a trusted host and reports it with its bytes', async () => {
    const p = await start({ trusted: [`upstream.test:${upstream.port}`] });
    const { head, body } = await tunnelGet(socketPath, `upstream.test:${upstream.port}`);
    expect(head).toMatch(/^HTTP\/1.1 200/);
    expect(body).toContain('upstream saw GET /through-tunnel');
    expect(upstream.connections()).toBe(1);
    expect(p.report().blocked).toEqual([]);
    expect(p.report().allowed).toEqual([
      {
        host: 'upstream.test',
        port: upstream.port,
        count: 1,
        bytes: expect.any(Number) as unknown,
      },
    ]);
    expect(p.report().allowed[0]!.bytes).toBeGreaterThan(100);
  });

  it('forwards an absolute-form GET to a trusted host', async () => {
    const p = await start({ trusted: [`upstream.test:${upstream.port}`] });
    const res = await proxyGet(socketPath, `http://upstream.test:${upstream.port}/pkg?x=1`);
    expect(res.status).toBe(200);
    expect(res.body).toBe(`upstream saw GET /pkg?x=1 host=upstream.test:${upstream.port}`);
    expect(p.report().allowed).toMatchObject([{ host: 'upstream.test', count: 1 }]);
  });

  it('refuses a name from the repository list that resolves to loopback', async () => {
    const p = await start({ allow: [`upstream.test:${upstream.port}`] });
    const { head, body } = await tunnelGet(socketPath, `upstream.test:${upstream.port}`);
    expect(head).toMatch(/^HTTP\/1.1 403/);
    expect(body).toBe(
      `autofix egress proxy refused upstream.test:${upstream.port}: ` +
        'resolves to 127.0.0.1, a loopback address\n',
    );
    const res = await proxyGet(socketPath, `http://upstream.test:${upstream.port}/`);
    expect(res.status).toBe(403);
    expect(upstream.connections()).toBe(0);
    expect(p.report().blocked).toEqual([
      {
        host: 'upstream.test',
        port: upstream.port,
        reason: 'resolves to 127.0.0.1, a loopback address',
        count: 2,
      },
    ]);
    expect(p.report().allowed).toEqual([]);
  });

  it('refuses a host on no list without resolving it', async () => {
    const p = await start({ trusted: [`upstream.test:${upstream.port}`] });
    answers['exfil.evil.test'] = ['127.0.0.1'];
    const { head, body } = await tunnelGet(socketPath, `exfil.evil.test:${upstream.port}`);
    expect(head).toMatch(/^HTTP\/1.1 403/);
    expect(body).toContain('exfil.evil.test');
    expect(body).toContain('not on the allowlist');
    expect(lookups).toEqual([]); // no DNS query could carry data out
    expect(upstream.connections()).toBe(0);
    expect(p.report().blocked).toEqual([
      { host: 'exfil.evil.test', port: upstream.port, reason: 'not on the allowlist', count: 1 },
    ]);
  });

  it.each(['169.254.169.254', '10.0.0.1', '127.0.0.1'])(
    'refuses the unlisted IP literal %s',
    async (ip) => {
      const p = await start({ allow: ['*.example.org'], trusted: ['upstream.test'] });
      const tunnel = await tunnelGet(socketPath, `${ip}:80`);
      expect(tunnel.head).toMatch(/^HTTP\/1.1 403/);
      const res = await proxyGet(socketPath, `http://${ip}/latest/meta-data/`);
      expect(res.status).toBe(403);
      expect(res.body).toContain(`refused ${ip}:80: IP address not on the allowlist`);
      expect(p.report().blocked).toEqual([
        { host: ip, port: 80, reason: 'IP address not on the allowlist', count: 2 },
      ]);
    },
  );

  it('refuses a DNS answer that mixes a public and a private address', async () => {
    answers['mixed.example.org'] = ['93.184.216.34', '10.0.0.5'];
    const p = await start({ allow: ['*.example.org'] });
    const { head, body } = await tunnelGet(socketPath, 'mixed.example.org:443');
    expect(head).toMatch(/^HTTP\/1.1 403/);
    expect(body).toContain('resolves to 10.0.0.5, a private address');
    expect(p.report().blocked).toMatchObject([{ host: 'mixed.example.org', port: 443 }]);
  });

  it("refuses the bot's own listener even for a trusted host", async () => {
    const p = await start({
      trusted: [`upstream.test:${upstream.port}`, `localhost:${upstream.port}`],
      deny: [{ host: 'localhost', port: upstream.port }],
    });
    answers['upstream.test'] = ['127.0.0.2']; // any loopback address reaches a localhost service
    const viaName = await tunnelGet(socketPath, `upstream.test:${upstream.port}`);
    expect(viaName.head).toMatch(/^HTTP\/1.1 403/);
    expect(viaName.body).toContain(`127.0.0.2 port ${upstream.port} is the bot's own service`);
    const viaLocalhost = await proxyGet(socketPath, `http://localhost:${upstream.port}/metrics`);
    expect(viaLocalhost.status).toBe(403);
    expect(upstream.connections()).toBe(0);
    expect(p.report().blocked.map((b) => b.host)).toEqual(['upstream.test', 'localhost']);
  });

  it('connects to the address it checked, never resolving the name a second time', async () => {
    let calls = 0;
    proxy = await startEgressProxy({
      socketPath,
      policy: { allow: [], trusted: [`rebind.test:${upstream.port}`], deny: [] },
      // A rebinding resolver: a harmless answer first, the metadata endpoint afterwards.
      lookup: () => Promise.resolve((calls += 1) === 1 ? ['127.0.0.1'] : ['169.254.169.254']),
      localAddresses: [],
    });
    const { head, body } = await tunnelGet(socketPath, `rebind.test:${upstream.port}`);
    expect(head).toMatch(/^HTTP\/1.1 200/);
    expect(body).toContain('upstream saw GET /through-tunnel');
    expect(calls).toBe(1);
  });

  it('refuses ports the entry does not name', async () => {
    answers['pkg.example.org'] = ['93.184.216.34'];
    const p = await start({ allow: ['pkg.example.org'] });
    const { head, body } = await tunnelGet(socketPath, 'pkg.example.org:22');
    expect(head).toMatch(/^HTTP\/1.1 403/);
    expect(body).toContain('port 22 not allowed (allowed: 80, 443)');
    expect(lookups).toEqual([]);
    expect(p.report().blocked).toMatchObject([{ host: 'pkg.example.org', port: 22 }]);
  });

  it('answers 400 to malformed requests and 431 to a head over 64 KiB', async () => {
    const p = await start({ trusted: [`upstream.test:${upstream.port}`] });
    expect(await rawExchange(socketPath, 'CONNECT nonsense HTTP/1.1\r\n\r\n')).toMatch(
      /^HTTP\/1.1 400[^]*CONNECT needs host:port/,
    );
    expect(await rawExchange(socketPath, 'GET /relative HTTP/1.1\r\nHost: x\r\n\r\n')).toMatch(
      /^HTTP\/1.1 400[^]*expected an absolute http:\/\/ URL/,
    );
    expect(await rawExchange(socketPath, 'GET https://upstream.test/ HTTP/1.1\r\n\r\n')).toMatch(
      /^HTTP\/1.1 400[^]*use CONNECT for https/,
    );
    expect(await rawExchange(socketPath, '\x16\x03\x01 not http at all\r\n\r\n')).toMatch(
      /^HTTP\/1.1 400/,
    );
    const huge = `GET http://upstream.test:${upstream.port}/ HTTP/1.1\r\nX-Big: ${'a'.repeat(70 * 1024)}\r\n\r\n`;
    expect(await rawExchange(socketPath, huge)).toMatch(/^HTTP\/1.1 431/);
    expect(upstream.connections()).toBe(0);
    const reasons = p.report().blocked.map((b) => b.reason);
    expect(reasons).toEqual(
      expect.arrayContaining(['CONNECT needs host:port', 'request head larger than 65536 bytes']),
    );
  });

  it('refuses WebSocket upgrades', async () => {
    await start({ trusted: [`upstream.test:${upstream.port}`] });
    const answer = await rawExchange(
      socketPath,
      `GET http://upstream.test:${upstream.port}/ HTTP/1.1\r\nHost: upstream.test\r\n` +
        'Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1.1 501/);
    expect(upstream.connections()).toBe(0);
  });

  it('answers 502 when an allowed name does not resolve', async () => {
    await start({ trusted: ['gone.test'] });
    const res = await proxyGet(socketPath, 'http://gone.test/');
    expect(res.status).toBe(502);
    expect(res.body).toContain('cannot resolve: ENOTFOUND gone.test');
  });

  it('ends a tunnel whose upstream goes quiet', async () => {
    // Accepts and never answers, like a hung registry.
    const silent = createTcpServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      await start({ trusted: [`upstream.test:${port}`] }, { idleTimeoutMs: 300 });
      const { head, body } = await tunnelGet(socketPath, `upstream.test:${port}`);
      // The tunnel opened, nothing came back, and the proxy closed it: tunnelGet resolved.
      expect(head).toMatch(/^HTTP\/1.1 200/);
      expect(body).toBe('');
    } finally {
      silent.close();
    }
  });

  it('closes open tunnels and its socket on close()', async () => {
    let tunneled = false; // the client's request came through: the tunnel is open
    const silent = createTcpServer((socket) => socket.once('data', () => (tunneled = true)));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const p = await start({ trusted: [`upstream.test:${port}`] });
      const pending = tunnelGet(socketPath, `upstream.test:${port}`);
      await waitFor(() => tunneled || undefined, WAIT_MS, 'the tunnel to open');
      await p.close();
      await expect(pending).resolves.toMatchObject({
        head: expect.stringMatching(/^HTTP\/1.1 200/) as unknown,
      });
      expect(existsSync(socketPath)).toBe(false);
      await expect(rawExchange(socketPath, 'x')).rejects.toThrow(/ENOENT|ECONNREFUSED/);
    } finally {
      silent.close();
    }
  });

  it('refuses to start on a bad policy entry, a relative path or a taken path', async () => {
    await expect(
      startEgressProxy({ socketPath, policy: { allow: ['https://x.org'], trusted: [], deny: [] } }),
    ).rejects.toThrow('egress allowlist entry "https://x.org": write a host');
    await expect(
      startEgressProxy({ socketPath: 'rel.sock', policy: { allow: [], trusted: [], deny: [] } }),
    ).rejects.toThrow('socket path must be absolute');
    await writeFile(socketPath, '');
    await expect(
      startEgressProxy({ socketPath, policy: { allow: [], trusted: [], deny: [] } }),
    ).rejects.toThrow(`egress proxy cannot listen on ${socketPath}: the path already exists`);
  });

  it('refuses to start when a deny host does not resolve (fails closed)', async () => {
    await expect(
      startEgressProxy({
        socketPath,
        policy: { allow: [], trusted: [], deny: [{ host: 'redis.nowhere.test', port: 6379 }] },
        lookup,
      }),
    ).rejects.toThrow('egress deny entry "redis.nowhere.test": cannot resolve');
  });
});
