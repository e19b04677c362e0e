/**
 * The allowlisting HTTP proxy that a sandboxed `setup` command reaches through its bridge: it
 * listens on a Unix socket (bind-mounted into a sandbox that has no network of its own), and for
 * each `CONNECT host:port` or `GET http://host/…` it matches the host against the policy,
 * resolves the name itself, checks every address, and connects to a checked address. Everything
 * else gets a 403 that names the host and the reason, and lands in the report.
 */
import { promises as dns } from 'node:dns';
import type { Server } from 'node:http';
import { networkInterfaces } from 'node:os';
import { isAbsolute } from 'node:path';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../logger.js';
import { compileEgressPolicy, type DeniedAddress, type EgressPolicy } from './egress-policy.js';
import { createEgressRecorder, type EgressReport } from './egress-report.js';
import { createEgressServer } from './egress-server.js';
import type { Upstreams } from './open-upstream.js';
import { resolveDeny } from './resolve-deny.js';

export type { EgressReport } from './egress-report.js';
export { proxyEnv } from './proxy-env.js';
export { MAX_HEAD_BYTES } from './egress-server.js';

export interface EgressProxyOptions {
  socketPath: string;
  policy: EgressPolicy;
  /** Resolves a host name to its addresses (default: the system resolver, every address). */
  lookup?: (host: string) => Promise<string[]>;
  logger?: Logger;
  /** No bytes either way for this long ends a connection. Default 2 min. */
  idleTimeoutMs?: number;
  /** The longest any one connection may live. Default 30 min. */
  maxConnectionMs?: number;
  /** Per address tried. Default 15 s. */
  connectTimeoutMs?: number;
  /** Default 10 s. */
  lookupTimeoutMs?: number;
  /** Connections open at once from the sandbox; more are dropped. Default 256. */
  maxConnections?: number;
  /** This machine's own addresses, denied on the `deny` ports (default: every interface's). */
  localAddresses?: readonly string[];
}

export interface EgressProxy {
  socketPath: string;
  report(): EgressReport;
  close(): Promise<void>;
}

/** Longest Unix socket path Linux accepts (sun_path is 108 bytes with its NUL). */
const MAX_SOCKET_PATH = 107;

async function systemLookup(host: string): Promise<string[]> {
  const answers = await dns.lookup(host, { all: true, verbatim: true });
  return answers.map((a) => a.address);
}

function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
}

function assertSocketPath(socketPath: string): void {
  if (!isAbsolute(socketPath))
    throw new Error(`egress proxy socket path must be absolute: ${socketPath}`);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH)
    throw new Error(
      `egress proxy socket path is longer than ${MAX_SOCKET_PATH} bytes: ${socketPath}`,
    );
}

function listen(server: Server, socketPath: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'EADDRINUSE' ? 'the path already exists' : err.message;
      reject(new Error(`egress proxy cannot listen on ${socketPath}: ${why}`));
    });
    server.listen(socketPath, () => resolve());
  });
}

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const { socketPath, policy } = options;
  assertSocketPath(socketPath);
  compileEgressPolicy(policy); // a malformed entry fails here, before anything listens
  const lookup = options.lookup ?? systemLookup;
  const log = options.logger?.child({ component: 'egress-proxy' });
  const deny: DeniedAddress[] = await resolveDeny(
    policy.deny,
    lookup,
    options.localAddresses ?? interfaceAddresses(),
  );
  const recorder = createEgressRecorder();
  const sockets = new Set<Duplex>();
  let closed = false;
  const up: Upstreams = {
    policy,
    lookup,
    lookupMs: options.lookupTimeoutMs ?? 10_000,
    deny,
    log,
    connectMs: options.connectTimeoutMs ?? 15_000,
    sockets,
    isClosed: () => closed,
    blocked: (host, port, reason) => {
      recorder.blocked(host, port, reason);
      log?.info({ host, port, reason }, 'egress blocked');
    },
  };
  const server = createEgressServer({
    up,
    recorder,
    idleMs: options.idleTimeoutMs ?? 120_000,
    maxConnections: options.maxConnections ?? 256,
    maxConnectionMs: options.maxConnectionMs ?? 1_800_000,
  });
  await listen(server, socketPath);

  let closing: Promise<void> | undefined;
  return {
    socketPath,
    report: () => recorder.report(),
    close() {
      closed = true;
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
