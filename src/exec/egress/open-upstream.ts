/**
 * The proxy's side of one allowed connection: `host:port` authorised (`authorise-egress.ts`) and
 * connected to a checked address, or refused with the reason (a policy refusal also recorded).
 */
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { authoriseEgress, type EgressGate } from './authorise-egress.js';
import { connectChecked } from './connect-checked.js';
import { refusalText } from './refusal.js';

/** The proxy state a connection needs besides the gate. */
export interface Upstreams extends EgressGate {
  connectMs: number;
  /** Open sockets, destroyed when the proxy closes. */
  sockets: Set<Duplex>;
  isClosed: () => boolean;
  blocked: (host: string, port: number, reason: string) => void;
}

/** The connected socket, or undefined once the client has its refusal (or is gone). */
export async function openUpstream(
  up: Upstreams,
  host: string,
  port: number,
  refuse: (status: number, text: string) => void,
  clientGone: () => boolean,
): Promise<Socket | undefined> {
  const verdict = await authoriseEgress(up, host, port);
  if (!verdict.ok) {
    if (verdict.status === 403) up.blocked(host, port, verdict.reason);
    refuse(verdict.status, refusalText(`${host}:${port}`, verdict.reason));
    return undefined;
  }
  let upstream: Socket;
  try {
    upstream = await connectChecked(verdict.addresses, port, up.connectMs);
  } catch (err) {
    refuse(502, refusalText(`${host}:${port}`, (err as Error).message));
    return undefined;
  }
  if (up.isClosed() || clientGone()) {
    upstream.destroy();
    return undefined;
  }
  up.sockets.add(upstream);
  upstream.on('close', () => up.sockets.delete(upstream));
  return upstream;
}
