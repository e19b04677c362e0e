import { Script } from 'node:vm';
import { BRIDGE_SOURCE, bridgeArgv } from '../../../src/exec/egress/bridge-source.js';
import { createEgressRecorder } from '../../../src/exec/egress/egress-report.js';
import { proxyEnv } from '../../../src/exec/egress/proxy-env.js';

describe('proxyEnv', () => {
  it('points every common tool at the bridge and exempts nothing', () => {
    const env = proxyEnv(3128);
    const url = 'http://127.0.0.1:3128';
    for (const name of [
      'HTTP_PROXY',
      'HTTPS_PROXY',
      'http_proxy',
      'https_proxy',
      'ALL_PROXY',
      'npm_config_proxy',
      'npm_config_https_proxy',
      'YARN_HTTP_PROXY',
      'YARN_HTTPS_PROXY',
      'CARGO_HTTP_PROXY',
    ])
      expect(env[name]).toBe(url);
    expect(env.NO_PROXY).toBe('');
    expect(env.no_proxy).toBe('');
    expect(env.JAVA_TOOL_OPTIONS).toContain('-Dhttps.proxyPort=3128');
    // Yarn 2+ refuses unknown YARN_* settings, so Yarn 1's name must not appear.
    expect(env).not.toHaveProperty('YARN_PROXY');
  });

  it('refuses a port that is not one', () => {
    expect(() => proxyEnv(0)).toThrow('proxy port must be an integer from 1 to 65535, got 0');
  });
});

describe('bridgeArgv', () => {
  it('runs the bridge source with node, then the socket, the port and the command', () => {
    const argv = bridgeArgv('/usr/bin/node', '/run/egress/proxy.sock', 3128, ['npm', 'ci']);
    expect(argv).toEqual([
      '/usr/bin/node',
      '--input-type=commonjs',
      '-e',
      BRIDGE_SOURCE,
      '--',
      '/run/egress/proxy.sock',
      '3128',
      'npm',
      'ci',
    ]);
  });

  it('refuses an empty command, a bad port and a relative socket path', () => {
    expect(() => bridgeArgv('node', '/s', 3128, [])).toThrow('empty command');
    expect(() => bridgeArgv('node', '/s', 70000, ['true'])).toThrow('port must be');
    expect(() => bridgeArgv('node', 's', 3128, ['true'])).toThrow('socket path must be absolute');
  });

  it('is plain CommonJS with no imports of its own', () => {
    expect(BRIDGE_SOURCE).not.toMatch(/\bimport\b|require\('\.|require\("\./);
    expect(() => new Script(BRIDGE_SOURCE)).not.toThrow(); // compiles as a plain script
  });
});

describe('createEgressRecorder', () => {
  it('sums attempts by host, port and reason, and bytes by host and port', () => {
    const recorder = createEgressRecorder();
    recorder.blocked('evil.com', 443, 'not on the allowlist');
    recorder.blocked('evil.com', 443, 'not on the allowlist');
    recorder.blocked('evil.com', 80, 'not on the allowlist');
    recorder.allowed('registry.npmjs.org', 443, 100);
    recorder.allowed('registry.npmjs.org', 443, 50);
    expect(recorder.report()).toEqual({
      blocked: [
        { host: 'evil.com', port: 443, reason: 'not on the allowlist', count: 2 },
        { host: 'evil.com', port: 80, reason: 'not on the allowlist', count: 1 },
      ],
      allowed: [{ host: 'registry.npmjs.org', port: 443, count: 2, bytes: 150 }],
      omitted: 0,
    });
  });

  it('stays bounded when a command asks for endless distinct hosts', () => {
    const recorder = createEgressRecorder(10);
    for (let i = 0; i < 10_000; i += 1)
      recorder.blocked(`h${i}.evil.com`, 443, 'not on the allowlist');
    const report = recorder.report();
    expect(report.blocked).toHaveLength(10);
    expect(report.omitted).toBe(9_990);
  });
});
