/**
 * The allowlisting HTTP proxy that a sandboxed `setup` command reaches through its bridge: it
 * listens on a Unix socket (bind-mounted into a sandbox that has no network of its own), and for
 * each `CONNECT host:port` or `GET http://host/…` it matches the host against the policy,
 * resolves the name itself, checks every address, and connects to a checked address. Everything
 * else gets a 403 that names the host and the reason, and lands in the report.
 */
import { promises as dns } from 'node:dns';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIP, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { isAbsolute } from 'node:path';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../logger.js';
import { canonicalAddress } from './classify-address.js';
import { connectChecked } from './connect-checked.js';
import {
  compileEgressPolicy,
  decideEgress,
  matchEgressHost,
  type DeniedAddress,
  type EgressPolicy,
} from './egress-policy.js';
import { createEgressRecorder, type EgressReport } from './egress-report.js';
import { forwardRequest } from './forward-request.js';
import { openTunnel } from './open-tunnel.js';
import { parseAbsoluteTarget, parseConnectTarget } from './proxy-target.js';
import { refusalText, sendRefusal, writeRawRefusal } from './refusal.js';
import { resolveDeny } from './resolve-deny.js';

export type { EgressReport } from './egress-report.js';
export { proxyEnv } from './proxy-env.js';

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

/** A request head (request line and headers) larger than this is refused with 431. */
export const MAX_HEAD_BYTES = 64 * 1024;
/** Longest Unix socket path Linux accepts (sun_path is 108 bytes with its NUL). */
const MAX_SOCKET_PATH = 107;
const MALFORMED = '(malformed request)';
const LOCALHOST = /^(?:.+\.)?localhost$/;

async function systemLookup(host: string): Promise<string[]> {
  const answers = await dns.lookup(host, { all: true, verbatim: true });
  return answers.map((a) => a.address);
}

function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} timed out`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

type Authorised = { ok: true; addresses: string[] } | { ok: false; status: number; reason: string };

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const { socketPath, policy } = options;
  if (!isAbsolute(socketPath))
    throw new Error(`egress proxy socket path must be absolute: ${socketPath}`);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH)
    throw new Error(
      `egress proxy socket path is longer than ${MAX_SOCKET_PATH} bytes: ${socketPath}`,
    );
  compileEgressPolicy(policy); // a malformed entry fails here, before anything listens
  const lookup = options.lookup ?? systemLookup;
  const idleMs = options.idleTimeoutMs ?? 120_000;
  const connectMs = options.connectTimeoutMs ?? 15_000;
  const lookupMs = options.lookupTimeoutMs ?? 10_000;
  const log = options.logger?.child({ component: 'egress-proxy' });
  const deny: DeniedAddress[] = await resolveDeny(
    policy.deny,
    lookup,
    options.localAddresses ?? interfaceAddresses(),
  );
  const recorder = createEgressRecorder();
  const sockets = new Set<Duplex>();
  let closed = false;

  const blocked = (host: string, port: number, reason: string) => {
    recorder.blocked(host, port, reason);
    log?.info({ host, port, reason }, 'egress blocked');
  };

  async function authorise(host: string, port: number): Promise<Authorised> {
    const match = matchEgressHost(policy, host, port);
    if (!match.allowed) return { ok: false, status: 403, reason: match.reason };
    let addresses: string[];
    try {
      addresses = isIP(host)
        ? [host]
        : LOCALHOST.test(host)
          ? ['127.0.0.1', '::1'] // RFC 6761: never asked of DNS
          : await withTimeout(lookup(host), lookupMs, 'DNS lookup');
    } catch (err) {
      log?.warn({ host, port, err: (err as Error).message }, 'egress lookup failed');
      return { ok: false, status: 502, reason: `cannot resolve: ${(err as Error).message}` };
    }
    const decision = decideEgress(policy, host, port, addresses, deny);
    if (!decision.allowed) return { ok: false, status: 403, reason: decision.reason };
    return { ok: true, addresses: addresses.map(canonicalAddress) };
  }

  /** Authorises host:port and connects to a checked address, or refuses (and records why). */
  async function openUpstream(
    host: string,
    port: number,
    refuse: (status: number, text: string) => void,
    clientGone: () => boolean,
  ): Promise<Socket | undefined> {
    const verdict = await authorise(host, port);
    if (!verdict.ok) {
      if (verdict.status === 403) blocked(host, port, verdict.reason);
      refuse(verdict.status, refusalText(`${host}:${port}`, verdict.reason));
      return undefined;
    }
    let upstream: Socket;
    try {
      upstream = await connectChecked(verdict.addresses, port, connectMs);
    } catch (err) {
      refuse(502, refusalText(`${host}:${port}`, (err as Error).message));
      return undefined;
    }
    if (closed || clientGone()) {
      upstream.destroy();
      return undefined;
    }
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    return upstream;
  }

  // A proxy takes the target from the request line; some clients' CONNECT has no Host header.
  const server = createServer({
    maxHeaderSize: MAX_HEAD_BYTES,
    requestTimeout: 0,
    requireHostHeader: false,
  });
  server.headersTimeout = 30_000;
  server.timeout = idleMs;
  server.keepAliveTimeout = 5_000;
  server.maxConnections = options.maxConnections ?? 256;

  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    const lifetime = setTimeout(() => socket.destroy(), options.maxConnectionMs ?? 1_800_000);
    lifetime.unref();
    socket.on('close', () => {
      clearTimeout(lifetime);
      sockets.delete(socket);
    });
  });

  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const reason = tooLarge
      ? `request head larger than ${MAX_HEAD_BYTES} bytes`
      : 'malformed request';
    blocked(MALFORMED, 0, reason);
    writeRawRefusal(socket, tooLarge ? 431 : 400, refusalText('request', reason));
  });

  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    client.on('error', () => client.destroy());
    const target = parseConnectTarget(req.url ?? '');
    if ('error' in target) {
      blocked(MALFORMED, 0, target.error);
      writeRawRefusal(client, 400, refusalText(JSON.stringify(req.url ?? ''), target.error));
      return;
    }
    const { host, port } = target;
    const refuse = (status: number, text: string) => writeRawRefusal(client, status, text);
    void openUpstream(host, port, refuse, () => client.destroyed).then((upstream) => {
      if (!upstream) return;
      openTunnel(client, upstream, head, idleMs, (bytes) => {
        recorder.allowed(host, port, bytes);
        log?.debug({ host, port, bytes }, 'egress tunnel closed');
      });
    });
  });

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const target = parseAbsoluteTarget(req.url ?? '');
    if ('error' in target) {
      blocked(MALFORMED, 0, target.error);
      sendRefusal(res, 400, refusalText(JSON.stringify(req.url ?? ''), target.error));
      return;
    }
    const { host, port } = target;
    const refuse = (status: number, text: string) => sendRefusal(res, status, text);
    void openUpstream(host, port, refuse, () => res.destroyed).then((upstream) => {
      if (!upstream) return;
      forwardRequest(req, res, upstream, target, idleMs, (bytes) => {
        recorder.allowed(host, port, bytes);
        log?.debug({ host, port, bytes }, 'egress request done');
      });
    });
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    const reason = 'protocol upgrades (WebSocket) are not proxied';
    blocked(MALFORMED, 0, reason);
    writeRawRefusal(socket, 501, refusalText(JSON.stringify(req.url ?? ''), reason));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'EADDRINUSE' ? 'the path already exists' : err.message;
      reject(new Error(`egress proxy cannot listen on ${socketPath}: ${why}`));
    });
    server.listen(socketPath, () => resolve());
  });

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
