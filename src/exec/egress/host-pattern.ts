/**
 * Host patterns of the egress allowlist (`registry.npmjs.org`, `*.pythonhosted.org`,
 * `localhost:4873`, `[fd00::1]:8080`) and the one spelling of a requested host they are compared
 * with. A host that a resolver could read as a number (`2130706433`, `0x7f.1`, `127.1`) is not a
 * host name: it is either a plain IP literal or refused, so no spelling trick turns a listed name
 * into an unlisted address.
 */
import { isIP } from 'node:net';
import { canonicalAddress } from './classify-address.js';

export interface HostPattern {
  /** The entry as written (trimmed), for messages. */
  entry: string;
  /** Lower case, no trailing dot; for a wildcard the part after `*.`; an IP in canonical form. */
  host: string;
  wildcard: boolean;
  ip: boolean;
  /** The one port the entry allows; without it, DEFAULT_EGRESS_PORTS. */
  port?: number;
}

/** Ports an entry without an explicit port allows: plain HTTP and HTTPS (and git over HTTPS). */
export const DEFAULT_EGRESS_PORTS: readonly number[] = [80, 443];

const LABEL = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?';
const HOST_NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
/** A last label that inet_aton would read as a number. */
const NUMERIC_LABEL = /^(?:0x[0-9a-f]*|[0-9]+)$/;

/**
 * The canonical spelling of a requested host (`Registry.NPMJS.org.` → `registry.npmjs.org`,
 * `[::FFFF:127.0.0.1]` → `127.0.0.1`), or undefined when it is neither a DNS name nor an IP.
 */
export function normaliseHost(text: string): string | undefined {
  const bracketed = text.startsWith('[') && text.endsWith(']');
  const bare = bracketed ? text.slice(1, -1) : text;
  if (isIP(bare) === 6) return canonicalAddress(bare);
  if (bracketed) return undefined;
  if (isIP(bare) === 4) return bare;
  const host = bare.toLowerCase().replace(/\.$/, '');
  if (host.length === 0 || host.length > 253 || !HOST_NAME.test(host)) return undefined;
  const last = host.slice(host.lastIndexOf('.') + 1);
  return NUMERIC_LABEL.test(last) ? undefined : host;
}

function parsePort(text: string, entry: string): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 1 && port <= 65535))
    throw new Error(`egress allowlist entry "${entry}": port must be a number from 1 to 65535`);
  return port;
}

/**
 * Parses one allowlist entry. Throws an Error naming the entry and what is wrong with it; config
 * validation calls this so a typo is a config error, not a silently useless entry.
 */
export function parseHostPattern(raw: string): HostPattern {
  const entry = raw.trim();
  const fail = (why: string): never => {
    throw new Error(`egress allowlist entry "${entry}": ${why}`);
  };
  if (entry === '') fail('empty');
  if (/[/@?#\s]/.test(entry)) fail('write a host (optionally host:port), not a URL');
  let hostText = entry;
  let port: number | undefined;
  if (entry.startsWith('[')) {
    const close = entry.indexOf(']');
    if (close < 0) fail('unclosed "["');
    hostText = entry.slice(0, close + 1);
    const rest = entry.slice(close + 1);
    if (rest !== '') {
      if (!rest.startsWith(':')) fail('expected ":port" after "]"');
      port = parsePort(rest.slice(1), entry);
    }
  } else if (entry.split(':').length === 2) {
    const colon = entry.indexOf(':');
    hostText = entry.slice(0, colon);
    port = parsePort(entry.slice(colon + 1), entry);
  }
  if (hostText === '*') fail('"*" would allow every host; list the hosts instead');
  let wildcard = false;
  if (hostText.startsWith('*.')) {
    wildcard = true;
    hostText = hostText.slice(2);
  }
  if (hostText.includes('*')) fail('the only wildcard is a leading "*." (e.g. *.example.org)');
  const host = normaliseHost(hostText);
  if (host === undefined) fail('not a host name or IP address');
  const ip = isIP(host!) !== 0;
  if (wildcard && ip) fail('a wildcard needs a domain name, not an IP address');
  if (wildcard && !host!.includes('.'))
    fail('a wildcard needs at least two labels (*.example.org)');
  return { entry, host: host!, wildcard, ip, ...(port === undefined ? {} : { port }) };
}

/** `*.example.org` matches `a.example.org` and `a.b.example.org`, never `example.org` itself. */
export function hostMatches(pattern: HostPattern, host: string): boolean {
  if (pattern.wildcard) return isIP(host) === 0 && host.endsWith(`.${pattern.host}`);
  return host === pattern.host;
}

export function portMatches(pattern: HostPattern, port: number): boolean {
  return pattern.port === undefined ? DEFAULT_EGRESS_PORTS.includes(port) : pattern.port === port;
}
