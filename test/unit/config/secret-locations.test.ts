import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

  it('never hides a system directory', () => {
    expect(secretLocations({ privateKeyPath: '/etc/app.pem' }, '/')).toEqual([]);
  });
});
