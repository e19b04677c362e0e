/**
 * Where a proxy request wants to go: `CONNECT host:port` (authority form) or
 * `GET http://host[:port]/path` (absolute form). Anything else is a malformed request and gets a
 * 400 that says which form was expected.
 */
import { normaliseHost } from './host-pattern.js';

export type ProxyTarget = { host: string; port: number } | { error: string };
export type ForwardTarget = { host: string; port: number; path: string; hostHeader: string };

function port(text: string): number | undefined {
  const value = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  return value >= 1 && value <= 65535 ? value : undefined;
}

/** `registry.npmjs.org:443`, `[2606:4700::1111]:443`. */
export function parseConnectTarget(authority: string): ProxyTarget {
  const colon = authority.lastIndexOf(':');
  if (colon <= 0) return { error: 'CONNECT needs host:port' };
  const hostText = authority.slice(0, colon);
  const portValue = port(authority.slice(colon + 1));
  if (portValue === undefined) return { error: 'CONNECT needs a port from 1 to 65535' };
  // A bare IPv6 literal must be bracketed, or its last group would be read as the port.
  if (hostText.includes(':') && !hostText.startsWith('['))
    return { error: 'IPv6 hosts must be written in brackets' };
  const host = normaliseHost(hostText);
  return host === undefined ? { error: 'malformed host name' } : { host, port: portValue };
}

/** `http://host[:port]/path?query` → where to connect and what to ask for there. */
export function parseAbsoluteTarget(url: string): ForwardTarget | { error: string } {
  if (/^https:/i.test(url)) return { error: 'use CONNECT for https' };
  if (!/^http:\/\//i.test(url))
    return { error: 'expected an absolute http:// URL (proxy request)' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { error: 'malformed URL' };
  }
  const host = normaliseHost(parsed.hostname);
  if (host === undefined) return { error: 'malformed host name' };
  const portValue = parsed.port === '' ? 80 : port(parsed.port);
  if (portValue === undefined) return { error: 'invalid port' };
  return {
    host,
    port: portValue,
    path: `${parsed.pathname}${parsed.search}`,
    hostHeader: parsed.host,
  };
}
