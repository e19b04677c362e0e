import {
  DEFAULT_EGRESS_ALLOW,
  decideEgress,
  matchEgressHost,
  type EgressPolicy,
} from '../../../src/exec/egress/egress-policy.js';
import {
  hostMatches,
  normaliseHost,
  parseHostPattern,
} from '../../../src/exec/egress/host-pattern.js';

describe('parseHostPattern', () => {
  it('reads hosts, wildcards, ports and IP literals', () => {
    expect(parseHostPattern('Registry.NPMJS.org.')).toEqual({
      entry: 'Registry.NPMJS.org.',
      host: 'registry.npmjs.org',
      wildcard: false,
      ip: false,
    });
    expect(parseHostPattern(' *.pythonhosted.org ')).toMatchObject({
      host: 'pythonhosted.org',
      wildcard: true,
    });
    expect(parseHostPattern('localhost:4873')).toMatchObject({ host: 'localhost', port: 4873 });
    expect(parseHostPattern('10.1.2.3:8080')).toMatchObject({
      host: '10.1.2.3',
      ip: true,
      port: 8080,
    });
    expect(parseHostPattern('[fd00::1]:8080')).toMatchObject({ ip: true, port: 8080 });
    expect(parseHostPattern('fd00::1')).toMatchObject({ ip: true });
    expect(parseHostPattern('fd00::1').port).toBeUndefined();
  });

  it.each([
    ['', /empty/],
    ['https://registry.npmjs.org', /not a URL/],
    ['registry.npmjs.org/path', /not a URL/],
    ['user@host', /not a URL/],
    ['*', /would allow every host/],
    ['*.org', /at least two labels/],
    ['a.*.example.org', /only wildcard is a leading/],
    ['*example.org', /only wildcard is a leading/],
    ['*.10.0.0.1', /not a host name|wildcard needs a domain/],
    ['host:0', /port must be/],
    ['host:65536', /port must be/],
    ['host:http', /port must be/],
    ['host:', /port must be/],
    ['127.1', /not a host name/],
    ['2130706433', /not a host name/],
    ['0x7f.0.0.1', /not a host name/],
    ['exa mple.org', /not a URL/],
    ['-bad-.example.org', /not a host name/],
    ['[::1', /unclosed/],
    ['[::1]x', /expected ":port"/],
  ])('refuses %j with a message that says why', (entry, why) => {
    expect(() => parseHostPattern(entry)).toThrow(why);
    expect(() => parseHostPattern(entry)).toThrow(/egress allowlist entry/);
  });
});

describe('host matching', () => {
  const wildcard = parseHostPattern('*.example.org');

  it('matches subdomains of a wildcard at any depth, never the bare domain or a look-alike', () => {
    expect(hostMatches(wildcard, 'a.example.org')).toBe(true);
    expect(hostMatches(wildcard, 'a.b.example.org')).toBe(true);
    expect(hostMatches(wildcard, 'example.org')).toBe(false);
    expect(hostMatches(wildcard, 'evil-example.org')).toBe(false);
    expect(hostMatches(wildcard, 'example.org.evil.com')).toBe(false);
  });

  it('compares case-insensitively and ignores a trailing dot', () => {
    expect(hostMatches(wildcard, normaliseHost('A.Example.ORG.')!)).toBe(true);
    expect(hostMatches(parseHostPattern('pypi.org'), normaliseHost('PyPI.org.')!)).toBe(true);
  });

  it('reads numeric spellings of an address as addresses or not at all', () => {
    expect(normaliseHost('[::FFFF:127.0.0.1]')).toBe('127.0.0.1');
    expect(normaliseHost('127.1')).toBeUndefined();
    expect(normaliseHost('2130706433')).toBeUndefined();
    expect(normaliseHost('0x7f000001')).toBeUndefined();
    expect(normaliseHost('::1')).toBe(normaliseHost('[0::1]'));
    expect(normaliseHost('a..b')).toBeUndefined();
    expect(normaliseHost('a'.repeat(64) + '.org')).toBeUndefined();
  });
});

describe('decideEgress', () => {
  const policy: EgressPolicy = {
    allow: [...DEFAULT_EGRESS_ALLOW, '*.example.org', 'git.example.net:8443'],
    trusted: ['verdaccio.internal', 'localhost:4873', '10.9.8.7', '169.254.1.1'],
    deny: [
      { host: 'localhost', port: 6379 },
      { host: '10.0.0.5', port: 6379 },
    ],
  };
  const allowed = { allowed: true };

  it('allows a default registry that resolves to public addresses', () => {
    expect(
      decideEgress(policy, 'registry.npmjs.org', 443, ['104.16.0.35', '2606:4700::6810:23']),
    ).toEqual(allowed);
    expect(decideEgress(policy, 'files.pythonhosted.org', 443, ['151.101.0.223'])).toEqual(allowed);
  });

  it('refuses a host that is on no list, before any address is known', () => {
    expect(matchEgressHost(policy, 'evil.com', 443)).toEqual({
      allowed: false,
      reason: 'not on the allowlist',
    });
    expect(decideEgress(policy, 'evil.com', 443, ['8.8.8.8'])).toMatchObject({ allowed: false });
  });

  it('allows only ports 80 and 443 unless the entry names a port', () => {
    expect(decideEgress(policy, 'registry.npmjs.org', 22, ['8.8.8.8'])).toEqual({
      allowed: false,
      reason: 'port 22 not allowed (allowed: 80, 443)',
    });
    expect(decideEgress(policy, 'git.example.net', 8443, ['8.8.8.8'])).toEqual(allowed);
    expect(decideEgress(policy, 'git.example.net', 443, ['8.8.8.8'])).toMatchObject({
      allowed: false,
      reason: 'port 443 not allowed (allowed: 8443)',
    });
  });

  it.each([
    ['127.0.0.1', 'resolves to 127.0.0.1, a loopback address'],
    ['10.0.0.1', 'resolves to 10.0.0.1, a private address'],
    ['169.254.169.254', 'resolves to 169.254.169.254, a link-local address'],
    ['fd00:ec2::254', 'a private address'],
    ['::ffff:127.0.0.1', 'resolves to 127.0.0.1, a loopback address'],
    ['100.100.100.200', 'a shared address'],
    ['0.0.0.0', '0.0.0.0, an unspecified address'],
  ])('refuses an allowlisted name that resolves to %s', (address, reason) => {
    const decision = decideEgress(policy, 'pkg.example.org', 443, [address]);
    expect(decision.allowed).toBe(false);
    expect(decision).toMatchObject({ reason: expect.stringContaining(reason) as unknown });
  });

  it('lets a listed name resolve to a documentation/benchmarking range (a mirror), never inward', () => {
    expect(decideEgress(policy, 'registry.npmjs.org', 443, ['203.0.113.80'])).toEqual(allowed);
    expect(decideEgress(policy, 'registry.npmjs.org', 443, ['198.18.0.9'])).toEqual(allowed);
    for (const inward of ['10.0.0.1', '100.64.0.1', '169.254.169.254', '127.0.0.1', 'fd00::1'])
      expect(decideEgress(policy, 'registry.npmjs.org', 443, [inward])).toMatchObject({
        allowed: false,
      });
  });

  it('refuses an answer that mixes a public and a private address', () => {
    expect(decideEgress(policy, 'pkg.example.org', 443, ['93.184.216.34', '10.0.0.5'])).toEqual({
      allowed: false,
      reason: 'resolves to 10.0.0.5, a private address',
    });
  });

  it('refuses a name with no address', () => {
    expect(decideEgress(policy, 'pkg.example.org', 443, [])).toEqual({
      allowed: false,
      reason: 'no address',
    });
  });

  it('lets trusted names resolve to loopback and private addresses, not to link-local', () => {
    expect(decideEgress(policy, 'localhost', 4873, ['127.0.0.1', '::1'])).toEqual(allowed);
    expect(decideEgress(policy, 'verdaccio.internal', 443, ['10.1.1.1'])).toEqual(allowed);
    expect(decideEgress(policy, 'verdaccio.internal', 443, ['169.254.169.254'])).toMatchObject({
      allowed: false,
      reason: 'resolves to 169.254.169.254, a link-local address',
    });
    expect(decideEgress(policy, 'verdaccio.internal', 443, ['224.0.0.1'])).toMatchObject({
      allowed: false,
    });
  });

  it('takes IP literals only when listed, and judges the literal itself', () => {
    expect(decideEgress(policy, '10.9.8.7', 443, [])).toEqual(allowed);
    expect(decideEgress(policy, '169.254.1.1', 80, [])).toEqual(allowed); // listed exactly
    expect(decideEgress(policy, '169.254.169.254', 80, [])).toEqual({
      allowed: false,
      reason: 'IP address not on the allowlist',
    });
    expect(decideEgress(policy, '10.0.0.1', 443, ['8.8.8.8'])).toMatchObject({ allowed: false });
    // A literal in `allow` (the repository's list) must still be public.
    const repoLiteral = { ...policy, allow: ['127.0.0.1'] };
    expect(decideEgress(repoLiteral, '127.0.0.1', 80, [])).toEqual({
      allowed: false,
      reason: '127.0.0.1, a loopback address',
    });
  });

  it("refuses the bot's own listeners even for a trusted host, by address and port", () => {
    const redis = { ...policy, trusted: ['localhost:6379', 'redis.internal:6379'] };
    expect(decideEgress(redis, 'localhost', 6379, ['127.0.0.1'])).toEqual({
      allowed: false,
      reason: "127.0.0.1 port 6379 is the bot's own service",
    });
    // Any loopback spelling reaches a service on localhost.
    expect(decideEgress(redis, 'redis.internal', 6379, ['127.0.0.2'])).toMatchObject({
      allowed: false,
    });
    expect(decideEgress(redis, 'redis.internal', 6379, ['::ffff:10.0.0.5'])).toMatchObject({
      allowed: false,
      reason: "10.0.0.5 port 6379 is the bot's own service",
    });
    expect(decideEgress(redis, 'redis.internal', 6379, ['10.0.0.6'])).toEqual(allowed);
  });

  it('refuses malformed hosts and ports', () => {
    expect(decideEgress(policy, 'bad host', 443, ['8.8.8.8'])).toEqual({
      allowed: false,
      reason: 'malformed host name',
    });
    expect(decideEgress(policy, 'registry.npmjs.org', 0, ['8.8.8.8'])).toEqual({
      allowed: false,
      reason: 'invalid port 0',
    });
    expect(decideEgress(policy, 'registry.npmjs.org', 443, ['not-an-ip'])).toEqual({
      allowed: false,
      reason: 'resolver returned an invalid address',
    });
  });

  it('every default entry is a valid pattern', () => {
    for (const entry of DEFAULT_EGRESS_ALLOW) expect(() => parseHostPattern(entry)).not.toThrow();
  });
});
