/**
 * What kind of destination an IP address is, so the egress proxy can refuse everything that is
 * not the public internet: the worker's own loopback services, the private network it sits in,
 * and the link-local cloud metadata endpoints (169.254.169.254, fd00:ec2::254). IPv6 forms that
 * carry an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo) are judged by that address, so
 * `::ffff:127.0.0.1` is loopback, not "some IPv6 host".
 */
import { BlockList, isIP } from 'node:net';

export type AddressClass =
  | 'public'
  /** 0.0.0.0/8 and `::`: Linux connects these to the local host. */
  | 'unspecified'
  | 'loopback'
  /** RFC 1918, fc00::/7 (unique local), fec0::/10 (site local), local-use NAT64. */
  | 'private'
  /** 100.64.0.0/10, carrier-grade NAT (and Alibaba's metadata endpoint 100.100.100.200). */
  | 'shared'
  /** 169.254.0.0/16, fe80::/10: where cloud metadata endpoints live. */
  | 'link-local'
  /** Documentation, benchmarking, IETF protocol assignments, 240.0.0.0/4 and similar. */
  | 'reserved'
  | 'multicast'
  | 'broadcast';

const RANGES_V4: readonly [string, number, AddressClass][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.88.99.0', 24, 'reserved'], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'broadcast'], // checked before 240/4, which contains it
  ['240.0.0.0', 4, 'reserved'],
];

const RANGES_V6: readonly [string, number, AddressClass][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b:1::', 48, 'private'], // local-use NAT64: its IPv4 layout is the network's choice
  ['100::', 64, 'reserved'], // discard-only
  ['2001:2::', 48, 'reserved'], // benchmarking
  ['2001:10::', 28, 'reserved'], // ORCHID
  ['2001:20::', 28, 'reserved'], // ORCHIDv2
  ['2001:db8::', 32, 'reserved'], // documentation
  ['3fff::', 20, 'reserved'], // documentation (RFC 9637)
  ['5f00::', 16, 'reserved'], // SRv6 SIDs
  ['fc00::', 7, 'private'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'private'],
  ['ff00::', 8, 'multicast'],
];

function buildLists(
  ranges: readonly [string, number, AddressClass][],
  family: 'ipv4' | 'ipv6',
): [BlockList, AddressClass][] {
  return ranges.map(([address, prefix, kind]) => {
    const list = new BlockList();
    list.addSubnet(address, prefix, family);
    return [list, kind];
  });
}

const LISTS_V4 = buildLists(RANGES_V4, 'ipv4');
const LISTS_V6 = buildLists(RANGES_V6, 'ipv6');

/** The eight 16-bit groups of an IPv6 literal (a trailing dotted quad allowed), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address;
  const lastColon = text.lastIndexOf(':');
  const quad = text.slice(lastColon + 1);
  if (quad.includes('.')) {
    // "::ffff:127.0.0.1" → "::ffff:7f00:1": the dotted quad is the last two groups.
    if (isIP(quad) !== 4) return undefined;
    const [a, b, c, d] = quad.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest, extra] = text.split('::');
  if (extra !== undefined) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const lead = parse(head);
  const trail = parse(rest ?? '');
  const fill = rest === undefined ? 0 : 8 - lead.length - trail.length;
  if (fill < 0) return undefined;
  const groups = [...lead, ...new Array<number>(fill).fill(0), ...trail];
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}

const quadOf = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 addresses an IPv6 address delivers to: mapped (::ffff:0:0/96), compatible (::/96),
 * translated (::ffff:0:0:0/96), NAT64 well-known prefix (64:ff9b::/96), 6to4 (2002::/16), and
 * both the server and the (inverted) client address of Teredo (2001::/32).
 */
function embeddedIPv4(groups: readonly number[]): string[] {
  const g = (i: number) => groups[i] ?? 0;
  const zero = (from: number, to: number) => groups.slice(from, to).every((x) => x === 0);
  const low = quadOf(g(6), g(7));
  if (g(0) === 0x2002) return [quadOf(g(1), g(2))];
  if (g(0) === 0x2001 && g(1) === 0)
    return [quadOf(g(2), g(3)), quadOf(~g(6) & 0xffff, ~g(7) & 0xffff)];
  if (g(0) === 0x64 && g(1) === 0xff9b && zero(2, 6)) return [low];
  if (zero(0, 5) && g(5) === 0xffff) return [low];
  if (zero(0, 4) && g(4) === 0xffff && g(5) === 0) return [low];
  // IPv4-compatible (deprecated): `::` and `::1` themselves are handled by the v6 table.
  if (zero(0, 6) && (g(6) !== 0 || g(7) > 1)) return [low];
  return [];
}

function classifyV4(ip: string): AddressClass {
  for (const [list, kind] of LISTS_V4) if (list.check(ip, 'ipv4')) return kind;
  return 'public';
}

/** Classifies an IPv4 or IPv6 literal (an IPv6 zone id is ignored); throws on anything else. */
export function classifyAddress(ip: string): AddressClass {
  const address = ip.replace(/%.*$/, '');
  const family = isIP(address);
  if (family === 4) return classifyV4(address);
  if (family !== 6) throw new TypeError(`not an IP address: ${JSON.stringify(ip)}`);
  const groups = ipv6Groups(address);
  if (!groups) throw new TypeError(`not an IP address: ${JSON.stringify(ip)}`);
  const canonical = groups.map((x) => x.toString(16)).join(':');
  for (const [list, kind] of LISTS_V6) if (list.check(canonical, 'ipv6')) return kind;
  for (const v4 of embeddedIPv4(groups)) {
    const kind = classifyV4(v4);
    if (kind !== 'public') return kind;
  }
  return 'public';
}

/** The canonical text of an address, so `::ffff:7f00:1` and `127.0.0.1` compare equal. */
export function canonicalAddress(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  if (isIP(address) === 4) return address;
  const groups = isIP(address) === 6 ? ipv6Groups(address) : undefined;
  if (!groups) return address.toLowerCase();
  const g = (i: number) => groups[i] ?? 0;
  if (groups.slice(0, 5).every((x) => x === 0) && g(5) === 0xffff) return quadOf(g(6), g(7));
  return groups.map((x) => x.toString(16)).join(':');
}
