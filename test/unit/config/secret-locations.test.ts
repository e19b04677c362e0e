import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secretLocations } from '../../../src/config/secret-locations.js';

describe('secretLocations', () => {
  it("lists the private key's directory and a working directory holding .env", () => {
    const cwd = mkdtempSync(join(tmpdir(), 'autofix-cwd-'));
    try {
      expect(secretLocations({ privateKeyPath: 'keys/app.pem' }, cwd)).toEqual([join(cwd, 'keys')]);
      writeFileSync(join(cwd, '.env'), 'APP_ID=1\n');
      expect(secretLocations({}, cwd)).toEqual([cwd]);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('lists the folder of the env file AUTOFIX_ENV_FILE names (the setup page writes there)', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'autofix-cwd-'));
    try {
      mkdirSync(join(cwd, 'config'));
      writeFileSync(join(cwd, 'config', '.env'), 'APP_ID=1\n');
      expect(secretLocations({ envFile: 'config/.env' }, cwd)).toEqual([join(cwd, 'config')]);
      expect(secretLocations({ envFile: join(cwd, 'elsewhere', '.env') }, cwd)).toEqual([]);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('never hides a system directory', () => {
    expect(secretLocations({ privateKeyPath: '/etc/app.pem' }, '/')).toEqual([]);
  });
});
