import { buildCommandEnv } from '../../../src/exec/command-env.js';

describe('buildCommandEnv', () => {
  const baseEnv = {
    PATH: '/usr/bin',
    HOME: '/home/w',
    LANG: 'C.UTF-8',
    TMPDIR: '/tmp',
    OPENAI_API_KEY: 'sk-secret',
    GITHUB_TOKEN: 'ghs_x',
    NPM_TOKEN: 'npm-secret',
    REDIS_URL: 'redis://h',
    FOO: 'bar',
  };

  it('passes only the allowlist plus CI=true', () => {
    expect(buildCommandEnv({ baseEnv })).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/w',
      LANG: 'C.UTF-8',
      TMPDIR: '/tmp',
      CI: 'true',
    });
  });

  it('adds env_passthrough names but never the app credentials', () => {
    const env = buildCommandEnv({
      baseEnv,
      passthrough: ['FOO', 'NPM_TOKEN', 'OPENAI_API_KEY', 'GITHUB_TOKEN', 'REDIS_URL', 'MISSING'],
    });
    expect(env.FOO).toBe('bar');
    expect(env.NPM_TOKEN).toBe('npm-secret');
    expect(env).not.toHaveProperty('OPENAI_API_KEY');
    expect(env).not.toHaveProperty('GITHUB_TOKEN');
    expect(env).not.toHaveProperty('REDIS_URL');
    expect(env).not.toHaveProperty('MISSING');
  });

  it('lets overrides win and supplies a PATH when the worker has none', () => {
    const env = buildCommandEnv({ baseEnv: {}, overrides: { HOME: '/job/home' } });
    expect(env).toEqual({ PATH: '/usr/local/bin:/usr/bin:/bin', CI: 'true', HOME: '/job/home' });
  });
});
