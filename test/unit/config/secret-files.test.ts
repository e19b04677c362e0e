import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSettings, withoutSecrets } from '../../../src/config/env.js';
import { secretLocations } from '../../../src/config/secret-locations.js';
import { AutofixError } from '../../../src/errors.js';

function errorOf(fn: () => unknown): AutofixError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AutofixError) return err;
    throw err;
  }
  throw new Error('expected an error');
}

describe('secrets given as files (*_FILE)', () => {
  let dir: string;
  const file = (name: string, text: string): string => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'autofix-secret-files-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads WEBHOOK_SECRET_FILE, OPENAI_API_KEY_FILE and ADMIN_PASSWORD_FILE, one trailing line break dropped', () => {
    const s = readSettings({
      WEBHOOK_SECRET_FILE: file('webhook', 'hook-secret-value\n'),
      OPENAI_API_KEY_FILE: file('openai', 'sk-from-a-file-0123456789\r\n'),
      ADMIN_PASSWORD_FILE: file('admin', 'pass word  '),
    });
    expect(s.webhookSecret).toBe('hook-secret-value');
    expect(s.openaiApiKey).toBe('sk-from-a-file-0123456789');
    expect(s.adminPassword).toBe('pass word  ');
    // The redactor knows them; the files' directory is hidden from repository commands.
    expect(s.secrets).toEqual(['hook-secret-value', 'sk-from-a-file-0123456789', 'pass word  ']);
    expect(s.secretFiles).toEqual([join(dir, 'webhook'), join(dir, 'openai'), join(dir, 'admin')]);
    expect(secretLocations(s, '/')).toEqual([dir]);
  });

  it('hides the directory of every secret file, the private key and the others alike', () => {
    const keys = join(dir, 'keys');
    const run = join(dir, 'run-secrets');
    mkdirSync(keys);
    mkdirSync(run);
    const s = {
      privateKeyPath: join(keys, 'app.pem'),
      secretFiles: [join(keys, 'app.pem'), join(run, 'openai')],
    };
    expect(secretLocations(s, '/')).toEqual([keys, run]);
  });

  it('reports every problem at once, by variable, never with a value', () => {
    const err = errorOf(() =>
      readSettings({
        WEBHOOK_SECRET: 'inline-webhook-secret-XY',
        WEBHOOK_SECRET_FILE: file('webhook', 'file-webhook-secret\n'),
        OPENAI_API_KEY_FILE: join(dir, 'missing'),
        ADMIN_PASSWORD_FILE: file('empty', '\n'),
        PORT: 'x',
      }),
    );
    expect(err.code).toBe('CONFIG_INVALID');
    expect(err.message).toMatch(/4 problems/);
    expect(err.message).toContain(
      'WEBHOOK_SECRET and WEBHOOK_SECRET_FILE: set one of them, not both',
    );
    expect(err.message).toContain(`OPENAI_API_KEY_FILE: cannot read ${join(dir, 'missing')}`);
    expect(err.message).toContain(`ADMIN_PASSWORD_FILE: ${join(dir, 'empty')} is empty`);
    expect(err.message).toContain('PORT:');
    expect(err.message).not.toContain('inline-webhook-secret');
    expect(err.message).not.toContain('file-webhook-secret');
  });

  it('names an unreadable file (as a non-root user would meet it)', () => {
    if (process.getuid?.() === 0) {
      // root reads any file: an unreadable path is a directory here.
      mkdirSync(join(dir, 'a-directory'));
      const err = errorOf(() => readSettings({ OPENAI_API_KEY_FILE: join(dir, 'a-directory') }));
      expect(err.message).toMatch(/OPENAI_API_KEY_FILE: cannot read .*a-directory: EISDIR/);
      return;
    }
    const path = file('locked', 'secret-value');
    chmodSync(path, 0o000);
    const err = errorOf(() => readSettings({ OPENAI_API_KEY_FILE: path }));
    expect(err.message).toMatch(/OPENAI_API_KEY_FILE: cannot read .*EACCES/);
  });
});

describe('withoutSecrets', () => {
  it('drops the secrets a process does not use and keeps the redactor list whole', () => {
    const s = readSettings({
      WEBHOOK_SECRET: 'webhook-secret-1',
      OPENAI_API_KEY: 'sk-openai-key-1',
      ADMIN_PASSWORD: 'admin-password-1',
    });
    const worker = withoutSecrets(s, 'webhookSecret', 'adminPassword');
    expect(worker.webhookSecret).toBeUndefined();
    expect(worker.adminPassword).toBeUndefined();
    expect(worker.openaiApiKey).toBe('sk-openai-key-1');
    expect(worker.secrets).toEqual(['webhook-secret-1', 'sk-openai-key-1', 'admin-password-1']);
    // The original is untouched.
    expect(s.webhookSecret).toBe('webhook-secret-1');
  });
});
