import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, REPO_ROOT, runCli, startCli, waitFor } from '../helpers/cli.js';

describe('autofix serve', () => {
  it('serves the GitHub App setup page when no credentials are set', async () => {
    const port = await freePort();
    // A directory without .env, whose app.yml is ours (Probot reads app.yml from the cwd).
    const cwd = mkdtempSync(join(tmpdir(), 'autofix-serve-'));
    symlinkSync(join(REPO_ROOT, 'app.yml'), join(cwd, 'app.yml'));
    symlinkSync(join(REPO_ROOT, 'package.json'), join(cwd, 'package.json'));
    const { child, output } = startCli(['serve'], {
      cwd,
      env: { PORT: String(port), HOST: '127.0.0.1', NO_SMEE_SETUP: 'true' },
    });
    try {
      const html = await waitFor(async () => {
        const res = await fetch(`http://127.0.0.1:${port}/`);
        return res.ok ? res.text() : undefined;
      });
      expect(html).toMatch(/<!DOCTYPE html>/i);
      expect(html).toContain('Register GitHub App');
      // The manifest posted to GitHub is built from app.yml.
      expect(html).toContain('Turns labelled issues into pull requests');
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      rmSync(cwd, { recursive: true, force: true });
    }
    expect(output()).toContain('No GitHub App credentials yet');
  });

  it('exits non-zero naming REDIS_URL when Redis does not answer', async () => {
    const port = await freePort(); // nothing listens there
    const r = await runCli(['serve'], { env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`REDIS_URL=redis://127.0.0.1:${port}`);
    expect(r.stderr).toMatch(/ECONNREFUSED/);
  });

  it('reports an invalid environment with every bad variable', async () => {
    const r = await runCli(['serve'], { env: { PORT: 'abc', REDIS_URL: 'http://x' } });
    expect(r.code).toBe(2); // a configuration error (README "Exit codes")
    expect(r.stderr).toContain('PORT:');
    expect(r.stderr).toContain('REDIS_URL:');
  });
});
