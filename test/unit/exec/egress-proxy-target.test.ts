import { parseAbsoluteTarget, parseConnectTarget } from '../../../src/exec/egress/proxy-target.js';

describe('parseConnectTarget', () => {
  it('reads host:port and bracketed IPv6', () => {
    expect(parseConnectTarget('Registry.NPMJS.org:443')).toEqual({
      host: 'registry.npmjs.org',
      port: 443,
    });
    expect(parseConnectTarget('[2606:4700::1111]:443')).toEqual({
      host: '2606:4700:0:0:0:0:0:1111',
      port: 443,
    });
  });

  it.each([
    ['registry.npmjs.org', 'CONNECT needs host:port'],
    [':443', 'CONNECT needs host:port'],
    ['host:0', 'CONNECT needs a port from 1 to 65535'],
    ['host:99999', 'CONNECT needs a port from 1 to 65535'],
    ['host:+443', 'CONNECT needs a port from 1 to 65535'],
    ['2606:4700::1111:443', 'IPv6 hosts must be written in brackets'],
    ['bad_host!:443', 'malformed host name'],
    ['127.1:443', 'malformed host name'],
  ])('refuses %j', (authority, error) => {
    expect(parseConnectTarget(authority)).toEqual({ error });
  });
});

describe('parseAbsoluteTarget', () => {
  it('reads host, port, path and the Host header to send', () => {
    expect(parseAbsoluteTarget('http://Example.org:8080/a/b?c=d#frag')).toEqual({
      host: 'example.org',
      port: 8080,
      path: '/a/b?c=d',
      hostHeader: 'example.org:8080',
    });
    expect(parseAbsoluteTarget('http://example.org')).toMatchObject({ port: 80, path: '/' });
  });

  it('refuses origin-form, https and other schemes', () => {
    expect(parseAbsoluteTarget('/index.html')).toEqual({
      error: 'expected an absolute http:// URL (proxy request)',
    });
    expect(parseAbsoluteTarget('https://example.org/')).toEqual({ error: 'use CONNECT for https' });
    expect(parseAbsoluteTarget('ftp://example.org/')).toMatchObject({
      error: expect.any(String) as unknown,
    });
    expect(parseAbsoluteTarget('http://exa mple.org/')).toMatchObject({ error: 'malformed URL' });
  });

  it('normalises numeric spellings into the address they mean', () => {
    // WHATWG URL reads 0x7f.1 as 127.0.0.1: an IP literal, which must be listed to pass.
    expect(parseAbsoluteTarget('http://0x7f.1/')).toMatchObject({ host: '127.0.0.1' });
  });
});
