/**
 * Turns the policy's `deny` entries (the bot's Redis and HTTP listeners, by host and port) into
 * addresses. A service on this machine (a name that resolves to loopback or 0.0.0.0) is denied on
 * every address of this machine: a listener on 0.0.0.0 also answers on the host's LAN and
 * public addresses, which an allowlisted name could resolve to.
 */
import { isIP } from 'node:net';
import { canonicalAddress, classifyAddress } from './classify-address.js';
import type { DeniedAddress, EgressPolicy } from './egress-policy.js';
import { normaliseHost } from './host-pattern.js';

export async function resolveDeny(
  deny: EgressPolicy['deny'],
  lookup: (host: string) => Promise<string[]>,
  localAddresses: readonly string[],
): Promise<DeniedAddress[]> {
  const result: DeniedAddress[] = [];
  for (const { host, port } of deny) {
    const name = normaliseHost(host);
    if (name === undefined) throw new Error(`egress deny entry "${host}": not a host name or IP`);
    let addresses: string[];
    if (isIP(name)) addresses = [name];
    else if (name === 'localhost' || name.endsWith('.localhost')) addresses = ['127.0.0.1', '::1'];
    else {
      try {
        addresses = await lookup(name);
      } catch (err) {
        // Fail closed: a deny entry we cannot resolve is a service we cannot protect.
        throw new Error(`egress deny entry "${host}": cannot resolve: ${(err as Error).message}`);
      }
    }
    const canonical = addresses.map(canonicalAddress);
    for (const address of canonical) result.push({ address, port });
    const local = canonical.some((a) => ['loopback', 'unspecified'].includes(classifyAddress(a)));
    if (local)
      for (const address of localAddresses)
        result.push({ address: canonicalAddress(address), port });
  }
  return result;
}
