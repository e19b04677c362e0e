/**
 * Issue #32: no Autofix process keeps a secret in `/proc/<pid>/environ`, the kernel's copy of the
 * environment it started with, which any process of the same user (and root) can read. The
 * compiled CLI is started as an operator would, with every secret in its environment, and the
 * file is read once the process is ready — for the process and every process below it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedactor } from '../../src/artifacts/redact.js';
import { CLI, cleanEnv, freePort, startCli } from '../helpers/cli.js';
import { startFakeGitHub, type FakeGitHub } from '../helpers/fake-github.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { createSampleRepo, TRIAGE, type SampleRepo } from '../helpers/sample-repo.js';
import { deleteKeys, REDIS_URL as SHARED_REDIS, waitFor } from '../integration/app/harness.js';
import { startOwnRedis, type OwnRedis } from '../integration/app/own-redis.js';
import { underLoad } from '../helpers/deadlines.js';
import { jest } from '@jest/globals';

// A hang guard for every test of this file (test/helpers/deadlines.ts).
jest.setTimeout(underLoad(60_000));

const { privateKey: PRIVATE_KEY, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const WEBHOOK_SECRET = 'environ-e2e-webhook-secret-4711';
const OPENAI_API_KEY = 'sk-environ-e2e-key-0123456789abcdQZ';
const ADMIN_PASSWORD = 'environ-e2e-admin-password-0815';
const REDIS_PASSWORD = 'environ-e2e-redis-pass-2342';
const SECRETS = [PRIVATE_KEY, WEBHOOK_SECRET, OPENAI_API_KEY, ADMIN_PASSWORD, REDIS_PASSWORD];
/** Variables that are no secret and must stay visible (operators read them there). */
const PLAIN: Record<string, string> = {
  AUTOFIX_E2E_PLAIN: 'plain-value-for-environ',
  LOG_LEVEL: 'info',
};

/** Every live process in the tree below `pid`, `pid` included. */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // exited while we looked
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

/** `/proc/<pid>/environ` of each process of the tree, as text. */
function environs(pid: number): { pid: number; text: string }[] {
  return processTree(pid).flatMap((p) => {
    try {
      return [{ pid: p, text: readFileSync(`/proc/${p}/environ`).toString('utf8') }];
    } catch {
      return [];
    }
  });
}

/** No secret in any form the redactor knows (verbatim, base64, hex, URL-encoded, PEM lines). */
function expectNoSecret(found: { pid: number; text: string }[]): void {
  const known = createRedactor(SECRETS);
  expect(found.length).toBeGreaterThan(0);
  for (const { pid, text } of found) {
    for (const secret of SECRETS)
      expect({ pid, holds: text.includes(secret) }).toEqual({ pid, holds: false });
    expect({ pid, forms: known.find(text).map((s) => s.label) }).toEqual({ pid, forms: [] });
  }
}

function expectPlainKept(text: string): void {
  const vars = text.split('\0');
  for (const [name, value] of Object.entries(PLAIN)) expect(vars).toContain(`${name}=${value}`);
  expect(vars.some((v) => v.startsWith('PATH='))).toBe(true);
}

describe('/proc/<pid>/environ of every Autofix process holds no secret', () => {
  let redis: OwnRedis;
  let github: FakeGitHub;
  let workdir: string;
  const children: ChildProcess[] = [];
  const prefixes: string[] = [];

  beforeAll(async () => {
    redis = await startOwnRedis([], { password: REDIS_PASSWORD });
    github = await startFakeGitHub({ appPublicKey: publicKey });
  });
  afterAll(async () => {
    await github.close();
    await redis.stop();
  });
  beforeEach(() => {
    workdir = mkdtempSync(join(tmpdir(), 'autofix-environ-'));
  });
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    for (const prefix of prefixes.splice(0)) await deleteKeys(redis.authUrl, prefix);
    rmSync(workdir, { recursive: true, force: true });
  });

  /** What an operator's environment holds: every secret, and compose's REDIS_PASSWORD too. */
  const operatorEnv = (): Record<string, string> => ({
    APP_ID: '1',
    PRIVATE_KEY,
    WEBHOOK_SECRET,
    OPENAI_API_KEY,
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    ADMIN_PASSWORD,
    REDIS_URL: redis.authUrl,
    REDIS_PASSWORD,
    ...github.env,
    AUTOFIX_WORKDIR: workdir,
    AUTOFIX_SANDBOX: 'none',
    HOST: '127.0.0.1',
    ...PLAIN,
  });

  it('autofix serve (with workers), once it answers /healthz', async () => {
    const port = await freePort();
    const prefix = `autofix-environ-${randomUUID().slice(0, 8)}`;
    prefixes.push(prefix);
    const cli = startCli(['serve', '--queue-prefix', prefix], {
      cwd: workdir,
      env: { ...operatorEnv(), PORT: String(port) },
    });
    children.push(cli.child);
    await waitFor(
      async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.ok,
      underLoad(30_000),
      `serve to listen\n${cli.output()}`,
    );
    const found = environs(cli.child.pid!);
    expectNoSecret(found);
    expectPlainKept(found[0]!.text);
    // It still has what it needs: the admin pages ask for the password it was given.
    const admin = await fetch(`http://127.0.0.1:${port}/admin/queues`, {
      headers: {
        authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`,
      },
    });
    expect(admin.status).toBe(200);
  });

  it('autofix worker, once its workers run', async () => {
    const prefix = `autofix-environ-${randomUUID().slice(0, 8)}`;
    prefixes.push(prefix);
    const cli = startCli(['worker', '--queue-prefix', prefix], {
      cwd: workdir,
      env: operatorEnv(),
    });
    children.push(cli.child);
    await waitFor(
      () => (cli.output().includes('workers running') ? true : undefined),
      underLoad(30_000),
      `the worker to start\n${cli.output()}`,
    );
    const found = environs(cli.child.pid!);
    expectNoSecret(found);
    expectPlainKept(found[0]!.text);
  });

  describe('autofix run', () => {
    let llm: FakeLlmServer;
    let sample: SampleRepo;
    beforeEach(async () => {
      llm = await startFakeLlmServer({ apiKey: OPENAI_API_KEY });
      sample = createSampleRepo();
    });
    afterEach(async () => {
      await llm.close();
      sample.cleanup();
    });

    it('while it talks to the model (it holds the LLM key)', async () => {
      let seen: { pid: number; text: string }[] = [];
      let pid = 0;
      llm.enqueue(() => {
        // The run is in its first LLM call: read its environment now.
        seen = environs(pid);
        return JSON.stringify(TRIAGE);
      });
      const issueFile = join(workdir, 'issue.md');
      writeFileSync(issueFile, '# add() returns the wrong result\n\nadd(2, 3) is -1.\n');
      const cli = startCli(['run', '--repo', sample.dir, '--issue-file', issueFile], {
        env: { ...operatorEnv(), OPENAI_BASE_URL: llm.baseUrl, AUTOFIX_MODEL: 'scripted' },
      });
      children.push(cli.child);
      pid = cli.child.pid!;
      await waitFor(
        () => (seen.length > 0 ? true : undefined),
        underLoad(30_000),
        `the first LLM call\n${cli.output()}`,
      );
      expectNoSecret(seen);
      expectPlainKept(seen[0]!.text);
    });
  });

  it('fails closed, naming the fix, where /proc/self/mem cannot be written', async () => {
    // /proc read-only, as a hardened container may have it: the block cannot be overwritten.
    const child = spawn(
      'bwrap',
      [
        '--die-with-parent',
        '--dev-bind',
        '/',
        '/',
        '--ro-bind',
        '/proc',
        '/proc',
        process.execPath,
        CLI,
        'worker',
      ],
      { env: { ...cleanEnv(), ...operatorEnv() }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('could not be cleared from /proc/self/environ');
    expect(stderr).toContain('OPENAI_API_KEY_FILE');
    expect(stderr).toMatch(/Refusing to start/);
    for (const secret of SECRETS) expect(stderr).not.toContain(secret);
    // Given as files, the same secrets start the same way: nothing to clear, nothing refused.
    const files = mkdtempSync(join(tmpdir(), 'autofix-environ-files-'));
    try {
      const file = (name: string, value: string): string => {
        writeFileSync(join(files, name), `${value}\n`);
        return join(files, name);
      };
      const prefix = `autofix-environ-${randomUUID().slice(0, 8)}`;
      prefixes.push(prefix);
      const fromFiles = spawn(
        'bwrap',
        [
          ...['--die-with-parent', '--dev-bind', '/', '/', '--ro-bind', '/proc', '/proc'],
          ...[process.execPath, CLI, 'worker', '--queue-prefix', prefix],
        ],
        {
          env: {
            ...cleanEnv(),
            APP_ID: '1',
            PRIVATE_KEY_PATH: file('app.pem', PRIVATE_KEY),
            WEBHOOK_SECRET_FILE: file('webhook', WEBHOOK_SECRET),
            OPENAI_API_KEY_FILE: file('openai', OPENAI_API_KEY),
            ADMIN_PASSWORD_FILE: file('admin', ADMIN_PASSWORD),
            REDIS_URL: SHARED_REDIS,
            ...github.env,
            AUTOFIX_WORKDIR: workdir,
            AUTOFIX_SANDBOX: 'none',
            ...PLAIN,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      children.push(fromFiles);
      let out = '';
      fromFiles.stdout.on('data', (b: Buffer) => (out += b.toString()));
      fromFiles.stderr.on('data', (b: Buffer) => (out += b.toString()));
      await waitFor(
        () => (out.includes('workers running') ? true : undefined),
        underLoad(30_000),
        `the worker started from files\n${out}`,
      );
      expectNoSecret(environs(fromFiles.pid!));
      await deleteKeys(SHARED_REDIS, prefix);
    } finally {
      rmSync(files, { recursive: true, force: true });
    }
  });
});
