/**
 * The env file of the compiled CLI: every problem of `.env` at once, each with its line, and the
 * setup page writing the App's credentials where `AUTOFIX_ENV_FILE` says (in a container, a
 * mounted volume), never into the working directory.
 */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDotEnv } from '../../src/config/dotenv.js';
import { freePort, runCli, startCli, waitFor } from '../helpers/cli.js';

const PEM =
  '-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----';

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), 'autofix-env-file-'));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

describe('the env file', () => {
  it.each([['serve'], ['worker']])(
    '%s reports every problem of .env at once, with its line, and exits 2',
    async (command) => {
      writeFileSync(
        join(cwd, '.env'),
        `LOG_LEVEL=loud\nPRIVATE_KEY=${PEM}\nPORT=abc\nWEBHOOK_PROXY_URL=smee.io/x\n`,
      );
      const r = await runCli([command], { cwd });
      expect(r.code).toBe(2);
      const out = r.stderr + r.stdout;
      expect(out).toMatch(/Invalid environment \(6 problems\)/);
      expect(out).toMatch(/LOG_LEVEL: must be one of trace.*\(set in \.env, line 1\)/);
      expect(out).toMatch(/\.env, line 3: is not KEY=VALUE; .*PRIVATE_KEY's value/);
      expect(out).toMatch(/\.env, line 4: /);
      expect(out).toMatch(
        /PRIVATE_KEY: holds the first line of a key only.*\(set in \.env, line 2\)/,
      );
      expect(out).toMatch(/PORT: must be a port number.*\(set in \.env, line 5\)/);
      expect(out).toMatch(/WEBHOOK_PROXY_URL: must be a URL.*\(set in \.env, line 6\)/);
    },
  );

  it('setup mode writes the credentials to AUTOFIX_ENV_FILE (its folder made), owner-only', async () => {
    const port = await freePort();
    const envFile = join(cwd, 'config', '.env');
    const { child, output } = startCli(['serve'], {
      cwd,
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        NO_SMEE_SETUP: 'true',
        AUTOFIX_ENV_FILE: envFile,
      },
    });
    const base = `http://127.0.0.1:${port}`;
    try {
      const page = await waitFor(async () => {
        const res = await fetch(`${base}/`);
        return res.ok ? res.text() : undefined;
      }).catch((err: Error) => {
        throw new Error(`${err.message}\n${output()}`);
      });
      expect(page).toContain(`<code id="env-file">${envFile}</code>`);
      const res = await fetch(`${base}/probot/import`, {
        method: 'POST',
        body: JSON.stringify({ appId: '42', pem: PEM, webhook_secret: 'hook' }),
      });
      expect(res.status).toBe(200);
      await waitFor(() => Promise.resolve(output().includes(`to ${envFile}`) ? true : undefined));
    } finally {
      child.kill('SIGTERM');
    }
    expect(existsSync(join(cwd, '.env'))).toBe(false);
    expect(statSync(envFile).mode & 0o777).toBe(0o600);
    // What the next start reads from there.
    const env: Record<string, string | undefined> = {};
    expect(loadDotEnv(envFile, env).problems).toEqual([]);
    expect(env).toEqual({ APP_ID: '42', PRIVATE_KEY: PEM, WEBHOOK_SECRET: 'hook' });
  });
});
