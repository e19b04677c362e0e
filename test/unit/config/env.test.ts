import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingFor, readSettings, requireSettings } from '../../../src/config/env.js';
import { AutofixError } from '../../../src/errors.js';

const PEM =
  '-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----\n';

function errorOf(fn: () => unknown): AutofixError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AutofixError) return err;
    throw err;
  }
  throw new Error('expected an error');
}

describe('readSettings', () => {
  it('applies defaults for an empty environment', () => {
    const s = readSettings({});
    expect(s.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(s.port).toBe(3000);
    expect(s.githubApiUrl).toBe('https://api.github.com');
    expect(s.appId).toBeUndefined();
    expect(s.secrets).toEqual([]);
  });

  it('reports every invalid variable together, by name', () => {
    const err = errorOf(() =>
      readSettings({
        APP_ID: 'abc',
        REDIS_URL: 'http://localhost:6379',
        OPENAI_BASE_URL: 'not a url',
        PORT: '99999',
        LOG_LEVEL: 'loud',
        GHE_HOST: 'https://ghe.example',
        GHE_PROTOCOL: 'ftp',
      }),
    );
    expect(err.code).toBe('CONFIG_INVALID');
    for (const name of [
      'APP_ID',
      'REDIS_URL',
      'OPENAI_BASE_URL',
      'PORT',
      'LOG_LEVEL',
      'GHE_HOST',
      'GHE_PROTOCOL',
    ]) {
      expect(err.message).toContain(`${name}:`);
    }
    expect(err.message).toMatch(/7 problems/);
  });

  it('never prints a secret value in an error', () => {
    const err = errorOf(() => readSettings({ PRIVATE_KEY: 'supersecretvalue-XY', PORT: 'x' }));
    expect(err.message).toContain('PRIVATE_KEY');
    expect(err.message).toContain('****XY');
    expect(err.message).not.toContain('supersecretvalue');
  });

  it('reads the private key from PRIVATE_KEY_PATH and builds the GHE API URL', () => {
    const dir = mkdtempSync(join(tmpdir(), 'autofix-env-'));
    const path = join(dir, 'key.pem');
    writeFileSync(path, PEM);
    const s = readSettings({
      APP_ID: '42',
      PRIVATE_KEY_PATH: path,
      WEBHOOK_SECRET: 'hooksecret',
      GHE_HOST: '127.0.0.1:8080',
      GHE_PROTOCOL: 'http',
    });
    expect(s.privateKey).toBe(PEM);
    expect(s.githubApiUrl).toBe('http://127.0.0.1:8080/api/v3');
    expect(s.secrets).toEqual([PEM, 'hooksecret']);
  });

  it('names an unreadable PRIVATE_KEY_PATH', () => {
    const err = errorOf(() => readSettings({ PRIVATE_KEY_PATH: '/nonexistent/key.pem' }));
    expect(err.message).toContain('PRIVATE_KEY_PATH: cannot read /nonexistent/key.pem');
  });

  it('lists every missing variable of a capability at once', () => {
    const s = readSettings({});
    expect(missingFor(s, 'github', 'llm')).toEqual([
      'APP_ID',
      'PRIVATE_KEY or PRIVATE_KEY_PATH',
      'WEBHOOK_SECRET',
      'OPENAI_API_KEY',
    ]);
    expect(() => requireSettings(s, 'llm')).toThrow(/set OPENAI_API_KEY/);
    expect(
      missingFor(readSettings({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }), 'llm'),
    ).toEqual([]);
  });

  it('reads the missed-delivery reconciler interval: 5 min by default, 0 = off', () => {
    expect(readSettings({}).reconcileIntervalMs).toBe(300_000);
    expect(readSettings({ AUTOFIX_RECONCILE_INTERVAL_MS: '0' }).reconcileIntervalMs).toBe(0);
    expect(readSettings({ AUTOFIX_RECONCILE_INTERVAL_MS: '60000' }).reconcileIntervalMs).toBe(
      60_000,
    );
    for (const bad of ['500', '5m', '-1']) {
      const err = errorOf(() => readSettings({ AUTOFIX_RECONCILE_INTERVAL_MS: bad }));
      expect(err.message).toContain('AUTOFIX_RECONCILE_INTERVAL_MS: must be milliseconds');
    }
  });
});
