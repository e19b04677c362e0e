/**
 * The exit-code table (src/bin/exit-codes.ts, README "Exit codes"), class by class, on the
 * compiled CLI. Every case runs in a fresh directory (no `.env`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT, EXIT_CODE_TABLE } from '../../src/bin/exit-codes.js';
import { freePort, runCli } from '../helpers/cli.js';
import { createRepo } from '../helpers/repo-builder.js';

const PEM =
  '-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----\n';

let cwd: string;
let repo: string;
let patch: string;
let badPatch: string;

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'autofix-exit-codes-'));
  repo = createRepo({
    root: cwd,
    name: 'repo',
    files: { 'a.txt': 'one\ntwo\nthree\n' },
    commit: false,
  }).dir;
  patch = join(cwd, 'change.diff');
  writeFileSync(patch, '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n');
  badPatch = join(cwd, 'stale.diff');
  writeFileSync(badPatch, '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n uno\n-dos\n+2\n tres\n');
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { cwd, env });
const seen = new Set<number>();

describe('exit codes', () => {
  describe(`${EXIT.OK}: success`, () => {
    it('--help and --version', async () => {
      expect((await cli(['--help'])).code).toBe(EXIT.OK);
      const version = await cli(['--version']);
      expect(version.code).toBe(EXIT.OK);
      expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
      seen.add(EXIT.OK);
    });

    it('apply-patch applied the change', async () => {
      const r = await cli(['apply-patch', '--repo', repo, '--patch', patch]);
      expect(r.code).toBe(EXIT.OK);
      expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('one\n2\nthree\n');
      writeFileSync(join(repo, 'a.txt'), 'one\ntwo\nthree\n');
    });
  });

  describe(`${EXIT.FAILED}: refused or failed`, () => {
    it('apply-patch refused a change that does not fit, writing nothing', async () => {
      const r = await cli(['apply-patch', '--repo', repo, '--patch', badPatch]);
      expect(r.code).toBe(EXIT.FAILED);
      expect(r.stderr).toContain('nothing was written');
      expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
      seen.add(EXIT.FAILED);
    });
  });

  describe(`${EXIT.USAGE}: usage error`, () => {
    it.each([
      [['frobnicate'], "unknown command 'frobnicate'"],
      [['apply-patch', '--repo', '.', '--patch', 'x', '--bogus'], "unknown option '--bogus'"],
      [['apply-patch', '--repo', '.'], "required option '--patch <file>' not specified"],
      [['apply-patch', '--repo', '.', '--patch', 'x', '--format', 'nope'], 'Allowed choices'],
      [['run', '--repo', '.', '--issue', 'x', '--number', 'one'], 'must be a whole number'],
      [['apply-patch', '--repo', '/nonexistent', '--patch', 'x'], 'is not a directory'],
    ])('%j', async (args, message) => {
      const r = await cli(args);
      expect(r.code).toBe(EXIT.USAGE);
      expect(r.stderr).toContain(message);
      seen.add(EXIT.USAGE);
    });
  });

  describe(`${EXIT.USAGE}: configuration error, named`, () => {
    it('no Redis at REDIS_URL', async () => {
      const port = await freePort(); // nothing listens there
      const r = await cli(['serve'], { REDIS_URL: `redis://127.0.0.1:${port}` });
      expect(r.code).toBe(EXIT.USAGE);
      expect(r.stderr).toContain(`Cannot reach Redis at REDIS_URL=redis://127.0.0.1:${port}`);
    });

    it('an invalid variable', async () => {
      const r = await cli(['serve'], { PORT: 'abc' });
      expect(r.code).toBe(EXIT.USAGE);
      expect(r.stderr).toContain('PORT: must be a port number');
    });

    it('APP_ID without a private key: names the key, no setup mode', async () => {
      const r = await cli(['serve'], { APP_ID: '123' });
      expect(r.code).toBe(EXIT.USAGE);
      expect(r.stderr).toContain(
        'APP_ID is set, but PRIVATE_KEY (or PRIVATE_KEY_PATH) and WEBHOOK_SECRET are missing',
      );
      expect(r.stderr).not.toContain('No GitHub App credentials yet');
    });

    it('a missing WEBHOOK_SECRET is named, and OPENAI_API_KEY is not', async () => {
      const r = await cli(['serve'], { APP_ID: '123', PRIVATE_KEY: PEM });
      expect(r.code).toBe(EXIT.USAGE);
      expect(r.stderr).toContain('APP_ID and PRIVATE_KEY are set, but WEBHOOK_SECRET is missing');
      expect(r.stderr).not.toContain('OPENAI');
    });

    it('WEBHOOK_SECRET alone is not setup mode either', async () => {
      const r = await cli(['serve'], { WEBHOOK_SECRET: 'shh' });
      expect(r.code).toBe(EXIT.USAGE);
      expect(r.stderr).toContain('but APP_ID and PRIVATE_KEY (or PRIVATE_KEY_PATH) are missing');
    });

    it('worker with APP_ID only names the private key', async () => {
      const r = await cli(['worker'], { APP_ID: '123' });
      expect(r.code).toBe(EXIT.USAGE);
      expect(r.stderr).toContain('set PRIVATE_KEY or PRIVATE_KEY_PATH');
    });
  });

  it('every row of the table has a case', () => {
    expect([...seen].sort()).toEqual(EXIT_CODE_TABLE.map((r) => r.code));
  });
});
