import { randomUUID } from 'node:crypto';
/**
 * The in-sandbox bridge, run here without a sandbox so each behaviour is seen on its own:
 * listening before the command starts, carrying bytes to the proxy's Unix socket, and ending the
 * way the command ended. (egress-sandbox.test.ts runs it inside bubblewrap.)
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bridgeArgv } from '../../../src/exec/egress/bridge-source.js';
import { startEgressProxy, type EgressProxy } from '../../../src/exec/egress/egress-proxy.js';
import { freePort } from '../../../src/hosts/app/free-port.js';

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the bridge in its own process group. `exitOnly` resolves when the bridge itself exits,
 * without waiting for output pipes that a leftover background process may still hold.
 */
function runBridge(
  argv: string[],
  onSpawn?: (pid: number) => void,
  { exitOnly = false } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const [file, ...args] = argv;
    const stdio = exitOnly ? 'ignore' : 'pipe';
    const child = spawn(file!, args, { stdio: ['ignore', stdio, stdio], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on(exitOnly ? 'exit' : 'close', (code: number | null, signal: NodeJS.Signals | null) =>
      resolve({ code, signal, stdout, stderr }),
    );
    if (child.pid) onSpawn?.(child.pid);
  });
}

/** Ends what is left of a bridge's own process group (never 0: that would be ours). */
function killGroup(pgid: number): void {
  if (pgid <= 1) return;
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function processes(): { pid: number; ppid: number; stat: string; args: string }[] {
  return spawnSync('ps', ['-eo', 'pid=,ppid=,stat=,args='])
    .stdout.toString()
    .split('\n')
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), stat: m[3]!, args: m[4]! }));
}

describe('egress bridge (outside a sandbox)', () => {
  let dir: string;
  let socketPath: string;
  let upstream: Server;
  let upstreamPort: number;
  let proxy: EgressProxy;
  let port: number;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'afx-bridge-'));
    socketPath = join(dir, 'proxy.sock');
    upstream = createServer((req, res) => res.end(`upstream saw ${req.url ?? ''}`));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamPort = (upstream.address() as AddressInfo).port;
    proxy = await startEgressProxy({
      socketPath,
      policy: { allow: [], trusted: [`upstream.test:${upstreamPort}`], deny: [] },
      lookup: () => Promise.resolve(['127.0.0.1']),
      localAddresses: [],
    });
    port = await freePort('127.0.0.1');
  });

  afterEach(async () => {
    await proxy.close();
    await new Promise((resolve) => upstream.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('is listening before the command starts, and carries its requests to the proxy', async () => {
    // The command's very first action is a connection to the bridge: no sleep, no retry.
    const script =
      `exec 3<>/dev/tcp/127.0.0.1/${port} || exit 90; ` +
      `printf 'GET http://upstream.test:${upstreamPort}/first HTTP/1.1\\r\\nHost: upstream.test\\r\\nConnection: close\\r\\n\\r\\n' >&3; ` +
      'cat <&3';
    const run = await runBridge(
      bridgeArgv(process.execPath, socketPath, port, ['bash', '-c', script]),
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^HTTP\/1.1 200[^]*upstream saw \/first$/);
    expect(proxy.report().allowed).toMatchObject([{ host: 'upstream.test', count: 1 }]);
  });

  it('exits with the command’s exit code', async () => {
    const run = await runBridge(
      bridgeArgv(process.execPath, socketPath, port, ['sh', '-c', 'exit 7']),
    );
    expect(run).toMatchObject({ code: 7, signal: null });
  });

  it('dies of the signal that ended the command', async () => {
    const run = await runBridge(
      bridgeArgv(process.execPath, socketPath, port, ['sh', '-c', 'kill -TERM $$']),
    );
    expect(run).toMatchObject({ code: null, signal: 'SIGTERM' });
  });

  it('passes SIGTERM on to the command and ends with it', async () => {
    // A command line no other run shares (an orphan of an earlier failure must not match), and a
    // trigger that waits until the command's own `sleep` runs under it.
    const tag = randomUUID();
    const marker = `sleep ${30000 + Math.floor(Math.random() * 20000)}`;
    const shell = `${marker}; exit 0 # ${tag}`;
    const shellPid = (): number | undefined =>
      processes().find(
        (p) => p.args.startsWith('sh -c') && p.args.includes(tag) && !p.stat.startsWith('Z'),
      )?.pid;
    let group = 0;
    try {
      const run = await runBridge(
        bridgeArgv(process.execPath, socketPath, port, ['sh', '-c', shell]),
        (pid) => {
          group = pid;
          // Signal the bridge alone, not its group: only forwarding can reach `sh`.
          const poll = setInterval(() => {
            const sh = shellPid();
            if (sh !== undefined && processes().some((p) => p.ppid === sh && p.args === marker)) {
              clearInterval(poll);
              process.kill(pid, 'SIGTERM');
            }
          }, 50);
        },
        { exitOnly: true },
      );
      expect(run).toMatchObject({ code: null, signal: 'SIGTERM' });
      expect(shellPid()).toBeUndefined(); // `sh` got the signal: it did not outlive the bridge
    } finally {
      killGroup(group); // the orphaned `sleep` (inside a sandbox, the PID namespace ends it)
      const sh = shellPid();
      if (sh !== undefined) process.kill(sh, 'SIGKILL');
    }
  });

  it('does not stay alive for connections the command left open', async () => {
    // A background job holds a connection through the bridge; the command itself exits.
    const script = `(exec 3<>/dev/tcp/127.0.0.1/${port}; sleep 20) & sleep 0.3; exit 3`;
    let group = 0;
    const started = Date.now();
    const run = await runBridge(
      bridgeArgv(process.execPath, socketPath, port, ['bash', '-c', script]),
      (pid) => (group = pid),
      { exitOnly: true },
    );
    expect(run.code).toBe(3);
    expect(Date.now() - started).toBeLessThan(15_000); // not held until the `sleep 20` ends
    killGroup(group);
  });

  it('reports a missing program as a shell would (127)', async () => {
    const run = await runBridge(
      bridgeArgv(process.execPath, socketPath, port, ['/nonexistent/program', 'x']),
    );
    expect(run.code).toBe(127);
    expect(run.stderr).toContain('autofix egress bridge: cannot run /nonexistent/program');
  });

  it('refuses to start the command when it cannot listen (125)', async () => {
    const taken = createTcpServer();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    try {
      const run = await runBridge(
        bridgeArgv(process.execPath, socketPath, port, ['sh', '-c', 'echo ran']),
      );
      expect(run.code).toBe(125);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`autofix egress bridge: cannot listen on 127.0.0.1:${port}`);
    } finally {
      taken.close();
    }
  });
});
