/**
 * Can part 3 reach the npm registry, and how must the egress proxy be told about it? The default
 * allowlist (`DEFAULT_EGRESS_ALLOW`) accepts registry.npmjs.org only on public addresses; behind
 * a mirror that answers for it on a private or reserved address, an operator lists it in
 * `AUTOFIX_NETWORK_ALLOW` (the policy's `trustedHosts`), and so does the bench.
 */
import { promises as dns } from 'node:dns';
import { classifyAddress } from '../../src/exec/egress/classify-address.js';
import { DEFAULT_EGRESS_ALLOW } from '../../src/exec/egress/default-egress-allow.js';

export const REGISTRY_HOST = 'registry.npmjs.org';
/** One version document of the registry: one request, ~2.5 KB. */
export const REGISTRY_PROBE_URL = `https://${REGISTRY_HOST}/dayjs/1.11.13`;

export type RegistryAccess =
  { reachable: true; trustedHosts: string[]; note?: string } | { reachable: false; reason: string };

export async function registryAccess(): Promise<RegistryAccess> {
  if (!DEFAULT_EGRESS_ALLOW.includes(REGISTRY_HOST))
    return { reachable: false, reason: `${REGISTRY_HOST} is not in DEFAULT_EGRESS_ALLOW` };
  try {
    const res = await fetch(`https://${REGISTRY_HOST}/dayjs`, {
      headers: { accept: 'application/vnd.npm.install-v1+json' },
      signal: AbortSignal.timeout(15_000),
    });
    await res.arrayBuffer();
    if (!res.ok) return { reachable: false, reason: `GET /dayjs answered ${res.status}` };
  } catch (err) {
    const cause = (err as { cause?: Error }).cause;
    return {
      reachable: false,
      reason: `${(err as Error).message}${cause ? `: ${cause.message}` : ''}`,
    };
  }
  const addresses = (await dns.lookup(REGISTRY_HOST, { all: true })).map((a) => a.address);
  const notPublic = addresses
    .map((address) => ({ address, kind: classifyAddress(address) }))
    .filter((a) => a.kind !== 'public');
  if (notPublic.length === 0) return { reachable: true, trustedHosts: [] };
  return {
    reachable: true,
    trustedHosts: [REGISTRY_HOST],
    note:
      `${REGISTRY_HOST} resolves to ${notPublic.map((a) => `${a.address} (${a.kind})`).join(', ')} ` +
      'on this machine (a mirror); the proxy takes default-allowlisted hosts on public addresses ' +
      `only, so the bench lists it as the operator would: AUTOFIX_NETWORK_ALLOW=${REGISTRY_HOST}.`,
  };
}
