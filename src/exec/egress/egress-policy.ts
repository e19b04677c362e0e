/**
 * Whether a `setup` command may open a connection to host:port. Pure: the proxy resolves names
 * and passes the addresses in, so the rule can be read and tested here without a network.
 *
 * Two lists, two levels of trust. `allow` (the defaults and a repository's `network_allow`) is
 * written by people the bot does not trust with its network, so its hosts must resolve to public
 * addresses only: a repository cannot point a name at the worker's Redis, the private network or
 * a cloud metadata endpoint. `trusted` is the operator's own list and may name private addresses
 * (an internal registry, a Verdaccio on localhost:4873). `deny` beats both.
 */
import { isIP } from 'node:net';
import { canonicalAddress, classifyAddress, type AddressClass } from './classify-address.js';
import {
  DEFAULT_EGRESS_PORTS,
  hostMatches,
  normaliseHost,
  parseHostPattern,
  portMatches,
  type HostPattern,
} from './host-pattern.js';

export { DEFAULT_EGRESS_ALLOW } from './default-egress-allow.js';

export interface EgressPolicy {
  /** Host patterns (`registry.npmjs.org`, `*.pythonhosted.org`, optional `:port`) whose addresses
   *  must be public: the documented defaults plus the repository's `network_allow`. */
  allow: readonly string[];
  /** The operator's own list (`AUTOFIX_NETWORK_ALLOW`): these may resolve to private addresses
   *  (an internal registry, a Verdaccio on localhost:4873) — the operator vouches for them. */
  trusted: readonly string[];
  /** Never reachable whatever the lists say: the bot's own Redis and HTTP listeners. */
  deny: readonly { host: string; port: number }[];
}

/** A resolved `deny` entry. */
export interface DeniedAddress {
  address: string;
  port: number;
}

export type EgressDecision = { allowed: true } | { allowed: false; reason: string };

/** What a trusted (operator-listed) name may resolve to; link-local only as a listed literal. */
const TRUSTED_CLASSES: ReadonlySet<AddressClass> = new Set<AddressClass>([
  'public',
  'loopback',
  'private',
  'shared',
  'reserved',
]);
/**
 * What a listed name (the defaults, `network_allow`) may resolve to: public addresses, and the
 * reserved documentation/benchmarking ranges — no site's own network lives there, and sandboxed
 * networks put their registry mirrors there (this machine's npm registry resolves to
 * 203.0.113.80). Never loopback, private, shared (CGNAT) or link-local (metadata) addresses.
 */
const LISTED_CLASSES: ReadonlySet<AddressClass> = new Set<AddressClass>(['public', 'reserved']);
/** Never a destination: Linux turns 0.0.0.0 into "this host", the others are not unicast. */
const NEVER_CLASSES: ReadonlySet<AddressClass> = new Set<AddressClass>([
  'unspecified',
  'multicast',
  'broadcast',
]);

interface CompiledPolicy {
  allow: HostPattern[];
  trusted: HostPattern[];
  deny: DeniedAddress[];
}

const compiled = new WeakMap<EgressPolicy, CompiledPolicy>();

/** Parses every entry once; throws on the first malformed one (see parseHostPattern). */
export function compileEgressPolicy(policy: EgressPolicy): CompiledPolicy {
  let result = compiled.get(policy);
  if (!result) {
    result = {
      allow: policy.allow.map(parseHostPattern),
      trusted: policy.trusted.map(parseHostPattern),
      deny: literalDenies(policy.deny),
    };
    compiled.set(policy, result);
  }
  return result;
}

/** `deny` entries that need no resolver: IP literals, and `localhost` (RFC 6761). */
function literalDenies(deny: EgressPolicy['deny']): DeniedAddress[] {
  return deny.flatMap(({ host, port }) => {
    const name = normaliseHost(host);
    if (name === 'localhost' || name?.endsWith('.localhost'))
      return [
        { address: '127.0.0.1', port },
        { address: '::1', port },
      ];
    return name !== undefined && isIP(name) ? [{ address: name, port }] : [];
  });
}

export type HostMatch =
  { allowed: true; trusted: boolean; literal: boolean } | { allowed: false; reason: string };

/**
 * The first half of the decision, before any DNS query: is host:port on a list at all? The proxy
 * refuses unlisted names without resolving them, so DNS cannot carry data out either.
 */
export function matchEgressHost(policy: EgressPolicy, host: string, port: number): HostMatch {
  const name = normaliseHost(host);
  if (name === undefined) return { allowed: false, reason: 'malformed host name' };
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    return { allowed: false, reason: `invalid port ${port}` };
  const { allow, trusted } = compileEgressPolicy(policy);
  const named = [...trusted, ...allow].filter((p) => hostMatches(p, name));
  if (named.length === 0) {
    return {
      allowed: false,
      reason: isIP(name) ? 'IP address not on the allowlist' : 'not on the allowlist',
    };
  }
  const onPort = named.filter((p) => portMatches(p, port));
  if (onPort.length === 0) {
    const ports = [...new Set(named.flatMap((p) => (p.port ? [p.port] : DEFAULT_EGRESS_PORTS)))];
    return { allowed: false, reason: `port ${port} not allowed (allowed: ${ports.join(', ')})` };
  }
  const trustedMatch = onPort.filter((p) => trusted.includes(p));
  return {
    allowed: true,
    trusted: trustedMatch.length > 0,
    literal: trustedMatch.some((p) => p.ip),
  };
}

function isDenied(deny: readonly DeniedAddress[], address: string, port: number): boolean {
  const kind = classifyAddress(address);
  const local = kind === 'loopback' || kind === 'unspecified';
  return deny.some((d) => {
    if (d.port !== port) return false;
    if (canonicalAddress(d.address) === address) return true;
    // A service on localhost or 0.0.0.0 answers on every loopback address (127.0.0.2 too).
    const dKind = classifyAddress(d.address);
    return local && (dKind === 'loopback' || dKind === 'unspecified');
  });
}

/**
 * The whole decision for a connection to host:port whose name resolved to `addresses` (for an
 * IP literal host, the literal itself is the only address). Every address must pass: a resolver
 * answer that mixes a public and a private address is refused, since the client could be sent
 * to either. `deny` defaults to the policy's literal entries; the proxy passes them resolved.
 */
export function decideEgress(
  policy: EgressPolicy,
  host: string,
  port: number,
  addresses: readonly string[],
  deny: readonly DeniedAddress[] = compileEgressPolicy(policy).deny,
): EgressDecision {
  const match = matchEgressHost(policy, host, port);
  if (!match.allowed) return match;
  const name = normaliseHost(host)!;
  const candidates = isIP(name) ? [name] : addresses;
  if (candidates.length === 0) return { allowed: false, reason: 'no address' };
  for (const raw of candidates) {
    let kind: AddressClass;
    let address: string;
    try {
      address = canonicalAddress(raw);
      kind = classifyAddress(address);
    } catch {
      return { allowed: false, reason: 'resolver returned an invalid address' };
    }
    if (isDenied(deny, address, port))
      return { allowed: false, reason: `${address} port ${port} is the bot's own service` };
    const ok = NEVER_CLASSES.has(kind)
      ? false
      : !match.trusted
        ? kind === 'public' || (!isIP(name) && LISTED_CLASSES.has(kind))
        : TRUSTED_CLASSES.has(kind) || (match.literal && kind === 'link-local');
    if (!ok) {
      const via = isIP(name) ? '' : 'resolves to ';
      const article = /^[aeiou]/.test(kind) ? 'an' : 'a';
      return { allowed: false, reason: `${via}${address}, ${article} ${kind} address` };
    }
  }
  return { allowed: true };
}
