import { ALLOWED_PROTOCOLS, gitEnv, tokenHeaderValue } from '../../../src/git/git-env.js';

/** A worker's environment: secrets, the operator's settings, and things that steer git. */
const WORKER_ENV: Record<string, string> = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  TZ: 'Europe/Paris',
  TMPDIR: '/var/tmp',
  https_proxy: 'http://proxy.internal:3128',
  NO_PROXY: 'localhost',
  SSL_CERT_FILE: '/etc/ssl/corp.pem',
  GIT_SSL_CAINFO: '/etc/ssl/corp.pem',
  PRIVATE_KEY: '-----BEGIN RSA PRIVATE KEY-----',
  WEBHOOK_SECRET: 'webhook-secret',
  OPENAI_API_KEY: 'sk-live',
  REDIS_URL: 'redis://:pw@127.0.0.1:6379',
  ADMIN_PASSWORD: 'admin',
  AWS_SECRET_ACCESS_KEY: 'aws',
  HOME: '/root',
  XDG_CONFIG_HOME: '/root/.config',
  LD_PRELOAD: '/tmp/evil.so',
  GIT_SSH_COMMAND: 'evil',
  GIT_EXTERNAL_DIFF: 'evil',
  GIT_EXEC_PATH: '/tmp/evil',
  GIT_CONFIG_PARAMETERS: "'core.fsmonitor'='evil'",
  GIT_CONFIG_GLOBAL: '/root/.gitconfig',
  GIT_TRACE_CURL: '1',
  GIT_SSL_NO_VERIFY: '1',
};

/** The command-scope config pairs carried by GIT_CONFIG_COUNT/KEY_n/VALUE_n. */
function configPairs(env: Record<string, string>): [string, string][] {
  const count = Number(env.GIT_CONFIG_COUNT);
  return Array.from({ length: count }, (_, i) => [
    env[`GIT_CONFIG_KEY_${i}`]!,
    env[`GIT_CONFIG_VALUE_${i}`]!,
  ]);
}

describe('gitEnv', () => {
  it('keeps only PATH, TZ, TMPDIR and the proxy and CA variables of the worker', () => {
    const env = gitEnv(WORKER_ENV);
    const inherited = Object.keys(env).filter((k) => env[k] === WORKER_ENV[k]);
    expect(inherited.sort()).toEqual(
      ['PATH', 'TZ', 'TMPDIR', 'https_proxy', 'NO_PROXY', 'SSL_CERT_FILE', 'GIT_SSL_CAINFO'].sort(),
    );
    for (const secret of ['PRIVATE_KEY', 'WEBHOOK_SECRET', 'OPENAI_API_KEY', 'REDIS_URL'])
      expect(env).not.toHaveProperty(secret);
    for (const steering of ['LD_PRELOAD', 'GIT_SSH_COMMAND', 'GIT_EXTERNAL_DIFF', 'GIT_EXEC_PATH'])
      expect(env).not.toHaveProperty(steering);
    expect(env).not.toHaveProperty('GIT_CONFIG_PARAMETERS');
    expect(env).not.toHaveProperty('GIT_TRACE_CURL');
    expect(env).not.toHaveProperty('GIT_SSL_NO_VERIFY');
  });

  it('reads no system, global or XDG config, and points HOME at nothing', () => {
    const env = gitEnv(WORKER_ENV);
    expect(env).toMatchObject({
      HOME: '/nonexistent',
      XDG_CONFIG_HOME: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_SYSTEM: '/dev/null',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_ALLOW_PROTOCOL: ALLOWED_PROTOCOLS,
      LC_ALL: 'C',
    });
  });

  it('switches off, at command scope, every config key that names a program', () => {
    const pairs = configPairs(gitEnv({}));
    expect(pairs).toEqual(
      expect.arrayContaining([
        ['core.fsmonitor', 'false'],
        ['core.hooksPath', '/dev/null'],
        ['core.editor', ':'],
        ['sequence.editor', ':'],
        ['core.pager', 'cat'],
        ['core.askPass', 'true'],
        ['core.sshCommand', 'false'],
        ['credential.helper', ''],
        ['commit.gpgSign', 'false'],
        ['log.showSignature', 'false'],
        ['gpg.program', 'false'],
        ['submodule.recurse', 'false'],
        ['safe.directory', '*'],
        ['core.checkStat', 'minimal'],
        ['core.trustctime', 'false'],
        ['maintenance.auto', 'false'],
      ]),
    );
    expect(pairs.some(([k]) => k === 'http.extraHeader')).toBe(false);
  });

  it('carries the token only as the http.extraHeader value', () => {
    const env = gitEnv({}, { token: 'ghs_abc' });
    expect(configPairs(env)).toContainEqual([
      'http.extraHeader',
      `Authorization: Basic ${tokenHeaderValue('ghs_abc')}`,
    ]);
    expect(Buffer.from(tokenHeaderValue('ghs_abc'), 'base64').toString()).toBe(
      'x-access-token:ghs_abc',
    );
  });

  it('lets a caller choose the repository, index and identity, but never our own settings', () => {
    const env = gitEnv(WORKER_ENV, {
      extra: { GIT_DIR: '/m/worktrees/a', GIT_WORK_TREE: '/w', GIT_AUTHOR_NAME: 'bot' },
    });
    expect(env).toMatchObject({ GIT_DIR: '/m/worktrees/a', GIT_WORK_TREE: '/w' });
    for (const name of ['GIT_SSH_COMMAND', 'GIT_CONFIG_COUNT', 'HOME', 'PRIVATE_KEY']) {
      expect(() => gitEnv(WORKER_ENV, { extra: { [name]: 'x' } })).toThrow(
        `git commands may not be given ${name}`,
      );
    }
  });
});
