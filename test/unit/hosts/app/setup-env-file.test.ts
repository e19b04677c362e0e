/**
 * What the setup flow keeps of the credentials GitHub hands over: what Autofix reads, not the
 * App's OAuth client secret (the manifest conversion returns it; Autofix uses no OAuth).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envFileWriter } from '../../../../src/hosts/app/setup-mode.js';
import { createLogger } from '../../../../src/logger.js';

describe('the setup flow’s env file writer', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'autofix-setup-env-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes what Autofix reads and leaves out the OAuth client id and secret', () => {
    const envFile = join(dir, '.env');
    const lines: string[] = [];
    const log = createLogger({ level: 'info' });
    log.info = ((msg: string) => void lines.push(msg)) as typeof log.info;
    const kept = envFileWriter(
      envFile,
      log,
    )({
      APP_ID: '42',
      PRIVATE_KEY: '"-----BEGIN RSA PRIVATE KEY-----\\nabc\\n-----END RSA PRIVATE KEY-----"',
      WEBHOOK_SECRET: 'hook',
      GITHUB_CLIENT_ID: 'Iv1.abc',
      GITHUB_CLIENT_SECRET: 'oauth-client-secret',
    });
    expect(Object.keys(kept)).toEqual(['APP_ID', 'PRIVATE_KEY', 'WEBHOOK_SECRET']);
    const written = readFileSync(envFile, 'utf8');
    expect(written).toContain('APP_ID=42');
    expect(written).not.toContain('oauth-client-secret');
    expect(written).not.toContain('GITHUB_CLIENT');
    expect(lines.join('\n')).toContain(
      'not kept, Autofix does not use them: GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET',
    );
  });
});
