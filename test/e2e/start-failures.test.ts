/**
 * Issue #37: `serve` and `worker` either do their job or exit non-zero saying why. The compiled
 * CLI as a child process, against the shared Redis (own key prefix, deleted after), in a fresh
 * directory (no `.env`): a busy port, a PEM-shaped but corrupt private key, no sandbox, no Redis.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT } from '../../src/bin/exit-codes.js';
import { deleteKeys } from '../../src/scheduler/delete-keys.js';
import { freePort, runCli } from '../helpers/cli.js';
import { generateAppKeyPair } from '../helpers/webhooks.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const keys = generateAppKeyPair();
/** PEM-shaped (BEGIN and END lines) but cut short: the base64 body stops after 5 lines. */
const TRUNCATED = [
  ...keys.privateKey.split('\n').slice(0, 6),
  '-----END RSA PRIVATE KEY-----',
].join('\n');
const prefix = `autofix-start-${randomUUID().slice(0, 8)}`;

let cwd: string;
beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'autofix-start-'));
});
afterAll(async () => {
  rmSync(cwd, { recursive: true, force: true });
  await deleteKeys(REDIS_URL, prefix);
});

const credentials = (privateKey = keys.privateKey) => ({
  APP_ID: '1',
  PRIVATE_KEY: privateKey,
  WEBHOOK_SECRET: 'start-secret',
  HOST: '127.0.0.1',
  REDIS_URL,
  AUTOFIX_SANDBOX: 'none',
  AUTOFIX_RECONCILE_INTERVAL_MS: '0',
});

/** The CLI with a deadline: a process that stays alive past it ends with code null (a failure). */
const cli = (args: string[], env: Record<string, string>) =>
  runCli([...args, '--queue-prefix', prefix], { cwd, env, timeoutMs: 30_000 });

/** A port that something else listens on for the length of `fn`. */
async function withBusyPort<T>(fn: (port: number) => Promise<T>): Promise<T> {
  const server: Server = createServer();
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
  try {
    return await fn(port);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('a port already in use ends the process, naming the port and what to set', () => {
  it('serve with credentials (no longer alive, connected to Redis, listening nowhere)', async () => {
    const r = await withBusyPort((port) =>
      cli(['serve'], { ...credentials(), PORT: String(port) }).then((res) => ({ ...res, port })),
    );
    expect(r.code).toBe(EXIT.USAGE);
    expect(r.stderr).toContain(
      `autofix: Cannot listen on 127.0.0.1:${r.port} (PORT=${r.port}): the port is already in use by another process. Stop it, or set PORT to a free port.`,
    );
  });

  it('serve in setup mode (no credentials)', async () => {
    const r = await withBusyPort((port) =>
      cli(['serve'], { HOST: '127.0.0.1', REDIS_URL, PORT: String(port) }).then((res) => ({
        ...res,
        port,
      })),
    );
    expect(r.code).toBe(EXIT.USAGE);
    expect(r.stderr).toContain(`Cannot listen on 127.0.0.1:${r.port} (PORT=${r.port})`);
  });

  it('worker --metrics-port, before it takes any job', async () => {
    const r = await withBusyPort((port) =>
      cli(['worker', '--metrics-port', String(port)], credentials()).then((res) => ({
        ...res,
        port,
      })),
    );
    expect(r.code).toBe(EXIT.USAGE);
    expect(r.stderr).toContain(
      `Cannot listen on 127.0.0.1:${r.port} (--metrics-port=${r.port}): the port is already in use`,
    );
    expect(r.stderr).not.toContain('workers running');
  });
});

describe('a private key that does not decode as an RSA private key is refused at start', () => {
  it.each([['serve'], ['worker']])('%s: PRIVATE_KEY, truncated', async (command) => {
    const r = await cli([command], { ...credentials(TRUNCATED), PORT: String(await freePort()) });
    expect(r.code).toBe(EXIT.USAGE);
    expect(r.stderr).toMatch(/autofix: PRIVATE_KEY does not decode as a private key: cut short/);
    // The key is named, never shown.
    expect(r.stderr + r.stdout).not.toContain(TRUNCATED.split('\n')[2]);
  });

  it('serve: PRIVATE_KEY_PATH names the file', async () => {
    const dir = join(cwd, 'keys');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'app.pem');
    writeFileSync(path, TRUNCATED);
    const env: Record<string, string> = { ...credentials(), PRIVATE_KEY_PATH: path };
    delete env.PRIVATE_KEY;
    const r = await cli(['serve'], env);
    expect(r.code).toBe(EXIT.USAGE);
    expect(r.stderr).toContain(`PRIVATE_KEY_PATH (${path}) does not decode as a private key`);
  });

  it('an EC key is named as not RSA', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const r = await cli(['worker'], credentials(pem));
    expect(r.code).toBe(EXIT.USAGE);
    expect(r.stderr).toContain('PRIVATE_KEY holds a ec key, not an RSA key');
  });
});

describe('no sandbox, no Redis', () => {
  it.each([['serve'], ['worker']])(
    '%s exits 1 when the sandbox cannot run, with the fix',
    async (command) => {
      // No bubblewrap, prlimit or setpriv on PATH (the CLI runs by node's absolute path).
      const emptyPath = mkdtempSync(join(cwd, 'bin-'));
      const env: Record<string, string> = { ...credentials(), PORT: String(await freePort()) };
      delete env.AUTOFIX_SANDBOX;
      const r = await cli([command], { ...env, PATH: emptyPath });
      expect(r.code).toBe(EXIT.FAILED);
      expect(r.stderr).toContain('The sandbox for repository commands does not work');
      expect(r.stderr).toContain('AUTOFIX_SANDBOX=none');
    },
  );

  it('worker exits naming REDIS_URL when Redis does not answer', async () => {
    const port = await freePort(); // nothing listens there
    const r = await cli(['worker'], { ...credentials(), REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(r.code).toBe(EXIT.USAGE);
    expect(r.stderr).toContain(`Cannot reach Redis at REDIS_URL=redis://127.0.0.1:${port}`);
  });
});
