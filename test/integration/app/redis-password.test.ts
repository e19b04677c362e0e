/**
 * `serve` and `worker` warn at start when Redis answers a client that sends no password, and stay
 * quiet (and work) when Redis requires one that REDIS_URL carries.
 */
import { checkRedis } from '../../../src/scheduler/check-redis.js';
import { startCaptured, type CapturedProcess } from './captured-log.js';
import { REDIS_URL, SECRET } from './harness.js';
import { startOwnRedis, type OwnRedis } from './own-redis.js';

const REDIS_PASSWORD = 'redis-pw-0f3a9b7c';
const WARNING = /accepts connections without a password/;

describe('Redis without a password', () => {
  let proc: CapturedProcess | undefined;
  let redis: OwnRedis | undefined;
  afterEach(async () => {
    await proc?.close();
    await redis?.stop();
    proc = undefined;
    redis = undefined;
  });

  it.each([['serve'], ['worker']] as const)(
    '%s warns at start when Redis needs no password, naming the fix',
    async (kind) => {
      proc = await startCaptured({ kind, redisUrl: REDIS_URL, webhookSecret: SECRET });
      const warnings = proc
        .text()
        .split('\n')
        .filter((line) => WARNING.test(line));
      expect(warnings).toHaveLength(1);
      const warning = JSON.parse(warnings[0]!) as { level: number; msg: string };
      expect(warning.level).toBe(40); // warn
      expect(warning.msg).toContain('REDIS_URL=redis://127.0.0.1:6379');
      expect(warning.msg).toContain('requirepass');
    },
  );

  it.each([['serve'], ['worker']] as const)(
    '%s does not warn when Redis requires the password REDIS_URL carries',
    async (kind) => {
      redis = await startOwnRedis([], { password: REDIS_PASSWORD });
      proc = await startCaptured({ kind, redisUrl: redis.authUrl, webhookSecret: SECRET });
      const log = proc.text();
      expect(log).toMatch(/Redis 7[\d.]* reachable/);
      expect(log).not.toMatch(WARNING);
      expect(log).not.toContain(REDIS_PASSWORD);
      if (proc.app) expect((await fetch(`${proc.app.url}/healthz`)).status).toBe(200);
    },
  );

  it('tells a password-protected Redis from an open one, whatever the URL carries', async () => {
    expect((await checkRedis(REDIS_URL)).acceptsAnonymous).toBe(true);
    redis = await startOwnRedis([], { password: REDIS_PASSWORD });
    expect((await checkRedis(redis.authUrl)).acceptsAnonymous).toBe(false);
    // A password in the URL that Redis never asked for still leaves Redis open.
    const open = await startOwnRedis();
    try {
      const check = await checkRedis(open.url.replace('redis://', 'redis://:unneeded-pw@'));
      expect(check.acceptsAnonymous).toBe(true);
    } finally {
      await open.stop();
    }
  });

  it('refuses to start against a password-protected Redis when REDIS_URL has no password', async () => {
    redis = await startOwnRedis([], { password: REDIS_PASSWORD });
    await expect(checkRedis(redis.url)).rejects.toThrow(
      new RegExp(`Cannot reach Redis at REDIS_URL=${redis.url}.*NOAUTH`),
    );
  });
});
