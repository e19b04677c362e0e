/**
 * Whether the proxy may connect to `host:port`, and to which addresses: the host is matched
 * against the policy, its name resolved by the proxy itself (with a deadline), and every address
 * checked (`decideEgress`). A refusal carries the HTTP status the client gets.
 */
import { isIP } from 'node:net';
import type { Logger } from '../../logger.js';
import { canonicalAddress } from './classify-address.js';
import {
  decideEgress,
  matchEgressHost,
  type DeniedAddress,
  type EgressPolicy,
} from './egress-policy.js';

export type Authorised =
  { ok: true; addresses: string[] } | { ok: false; status: number; reason: string };

/** What the check needs: the policy, the resolver and the addresses denied on `deny` ports. */
export interface EgressGate {
  policy: EgressPolicy;
  lookup: (host: string) => Promise<string[]>;
  lookupMs: number;
  deny: DeniedAddress[];
  log: Logger | undefined;
}

const LOCALHOST = /^(?:.+\.)?localhost$/;

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

export async function authoriseEgress(
  gate: EgressGate,
  host: string,
  port: number,
): Promise<Authorised> {
  const match = matchEgressHost(gate.policy, host, port);
  if (!match.allowed) return { ok: false, status: 403, reason: match.reason };
  let addresses: string[];
  try {
    addresses = isIP(host)
      ? [host]
      : LOCALHOST.test(host)
        ? ['127.0.0.1', '::1'] // RFC 6761: never asked of DNS
        : await withTimeout(gate.lookup(host), gate.lookupMs, 'DNS lookup');
  } catch (err) {
    gate.log?.warn({ host, port, err: (err as Error).message }, 'egress lookup failed');
    return { ok: false, status: 502, reason: `cannot resolve: ${(err as Error).message}` };
  }
  const decision = decideEgress(gate.policy, host, port, addresses, gate.deny);
  if (!decision.allowed) return { ok: false, status: 403, reason: decision.reason };
  return { ok: true, addresses: addresses.map(canonicalAddress) };
}
