import { canonicalAddress, classifyAddress } from '../../../src/exec/egress/classify-address.js';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['104.16.0.1', 'public'],
    ['2606:4700::1111', 'public'],
    ['2a00:1450:4001:82b::200e', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['2002:808:808::1', 'public'], // 6to4 of 8.8.8.8
  ])('%s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });

  it.each([
    // loopback and "this host"
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    // RFC 1918, CGNAT
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.100.100.200', 'shared'], // Alibaba Cloud metadata
    // link-local: cloud metadata endpoints
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    // unique local, including AWS's IPv6 metadata endpoint
    ['fc00::1', 'private'],
    ['fd00:ec2::254', 'private'],
    ['fec0::1', 'private'],
    // special-purpose IPv4
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    // IPv6 forms that carry a private IPv4 address
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:10.1.2.3', 'private'],
    ['::127.0.0.1', 'loopback'], // IPv4-compatible (deprecated)
    ['::ffff:0:169.254.169.254', 'link-local'], // IPv4-translated
    ['64:ff9b::10.0.0.1', 'private'], // NAT64 well-known prefix
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['64:ff9b:1::1', 'private'], // local-use NAT64
    ['2002:7f00:1::', 'loopback'], // 6to4 of 127.0.0.1
    ['2002:a9fe:a9fe::1', 'link-local'], // 6to4 of 169.254.169.254
    // Teredo: the client address is stored inverted (~192.168.1.1 = 3f57:fefe)
    ['2001:0:4136:e378:8000:63bf:3f57:fefe', 'private'],
    ['2001:0:a00:1::1', 'private'], // Teredo server 10.0.0.1
  ])('%s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });

  it('throws on something that is not an IP address', () => {
    expect(() => classifyAddress('localhost')).toThrow('not an IP address: "localhost"');
    expect(() => classifyAddress('127.1')).toThrow(/not an IP address/);
  });
});

describe('canonicalAddress', () => {
  it('spells the same address one way', () => {
    expect(canonicalAddress('::FFFF:127.0.0.1')).toBe('127.0.0.1');
    expect(canonicalAddress('0:0:0:0:0:0:0:1')).toBe('0:0:0:0:0:0:0:1');
    expect(canonicalAddress('::1')).toBe(canonicalAddress('0::1'));
    expect(canonicalAddress('10.0.0.1')).toBe('10.0.0.1');
  });
});
