/**
 * The egress path end to end through a real bubblewrap sandbox with no network of its own:
 * curl inside → bridge on the sandbox's loopback → the proxy's Unix socket (bind-mounted) →
 * the allowlist → an upstream on the host's 127.0.0.1.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bridgeArgv, DEFAULT_BRIDGE_PORT } from '../../../src/exec/egress/bridge-source.js';
import {
  proxyEnv,
  startEgressProxy,
  type EgressProxy,
} from '../../../src/exec/egress/egress-proxy.js';

import { WAIT_MS } from '../../helpers/deadlines.js';

const BWRAP = '/usr/bin/bwrap';

/** Polls until `condition` holds (the deadline only guards against a hang; the test then asserts). */
async function waitFor(condition: () => boolean, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

describe('egress through a bubblewrap sandbox', () => {
  let dir: string;
  let socketPath: string;
  let upstream: Server;
  let upstreamPort: number;
  let upstreamConnections: number;
  let proxy: EgressProxy;

  function sandboxArgs(argv: string[]): string[] {
    return [
      '--die-with-parent',
      '--unshare-net',
      '--unshare-pid',
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      '--bind',
      dir,
      dir,
      '--',
      ...bridgeArgv(process.execPath, socketPath, DEFAULT_BRIDGE_PORT, argv),
    ];
  }

  function sandboxed(argv: string[], onSpawn?: (pid: number) => void): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(BWRAP, sandboxArgs(argv), {
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true, // its own process group, like runCommand's
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...proxyEnv(DEFAULT_BRIDGE_PORT) },
      });
      let stdout = '';
      let stderr = '';
      let announced = false;
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
        if (!announced && stdout.includes('started') && child.pid) {
          announced = true;
          onSpawn?.(child.pid);
        }
      });
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    });
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'afx-egress-sbx-'));
    socketPath = join(dir, 'proxy.sock');
    upstreamConnections = 0;
    upstream = createServer((req, res) => res.end(`upstream saw ${req.url ?? ''}`));
    upstream.on('connection', () => (upstreamConnections += 1));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamPort = (upstream.address() as AddressInfo).port;
    proxy = await startEgressProxy({
      socketPath,
      policy: {
        allow: ['*.example.org'],
        trusted: [`upstream.test:${upstreamPort}`],
        deny: [],
      },
      lookup: (host) =>
        host === 'upstream.test'
          ? Promise.resolve(['127.0.0.1'])
          : Promise.reject(new Error(`ENOTFOUND ${host}`)),
      localAddresses: [],
    });
  });

  afterEach(async () => {
    await proxy.close();
    await new Promise((resolve) => upstream.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('reaches an allowed host through the bridge, by absolute-form GET and by CONNECT', async () => {
    const url = `http://upstream.test:${upstreamPort}`;
    const plain = await sandboxed(['curl', '-sS', '--max-time', '20', `${url}/plain`]);
    expect(plain.stderr).toBe('');
    expect(plain).toMatchObject({ code: 0, stdout: 'upstream saw /plain' });
    // -p: tunnel through the proxy with CONNECT, as https and git do.
    const tunnel = await sandboxed(['curl', '-sS', '-p', '--max-time', '20', `${url}/tunnel`]);
    expect(tunnel).toMatchObject({ code: 0, stdout: 'upstream saw /tunnel' });
    // A tunnel is recorded when the proxy sees it close, which may come just after the sandbox.
    await waitFor(() => proxy.report().allowed[0]?.count === 2);
    expect(proxy.report().allowed).toEqual([
      { host: 'upstream.test', port: upstreamPort, count: 2, bytes: expect.any(Number) as unknown },
    ]);
  });

  it('cannot reach the host’s loopback directly: the sandbox has no network', async () => {
    const direct = await sandboxed([
      'curl',
      '-sS',
      '--noproxy',
      '*',
      '--max-time',
      '10',
      `http://127.0.0.1:${upstreamPort}/direct`,
    ]);
    // curl's "couldn't connect"; the bridge exits with curl's code.
    expect(direct.code).toBe(7);
    expect(upstreamConnections).toBe(0);
  });

  it('gets a 403 naming the host for a refused destination, and the refusal is reported', async () => {
    const refused = await sandboxed([
      'curl',
      '-sS',
      '--max-time',
      '10',
      '-w',
      '\n%{http_code}',
      'http://169.254.169.254/latest/meta-data/',
    ]);
    expect(refused.code).toBe(0);
    expect(refused.stdout).toBe(
      'autofix egress proxy refused 169.254.169.254:80: IP address not on the allowlist\n\n403',
    );
    const tunnel = await sandboxed(['curl', '-sS', '--max-time', '10', 'https://exfil.evil.test/']);
    expect(tunnel.code).toBe(56); // CONNECT refused: "CONNECT tunnel failed, response 403"
    expect(tunnel.stderr).toContain('403');
    expect(proxy.report().blocked).toEqual([
      { host: '169.254.169.254', port: 80, reason: 'IP address not on the allowlist', count: 1 },
      { host: 'exfil.evil.test', port: 443, reason: 'not on the allowlist', count: 1 },
    ]);
    expect(upstreamConnections).toBe(0);
  });

  it('exits with the command’s exit code', async () => {
    const run = await sandboxed(['sh', '-c', 'exit 42']);
    expect(run.code).toBe(42);
  });

  it('ends the bridge and the command when the sandbox’s process group is killed', async () => {
    const marker = `sleep ${31000 + (process.pid % 1000)}`;
    const run = await sandboxed(['sh', '-c', `echo started; ${marker}`], (pid) => {
      process.kill(-pid, 'SIGTERM');
    });
    expect(run.signal ?? run.code).toBeTruthy();
    const ps = spawnSync('ps', ['-eo', 'stat=,args=']).stdout.toString().split('\n');
    const left = ps.filter(
      (l) => !l.startsWith('Z') && (l.includes(marker) || l.includes(socketPath)),
    );
    expect(left).toEqual([]);
  });
});
