/** Runs the compiled `autofix` CLI (built by `pretest`) as a real child process. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { underLoad, WAIT_MS } from './deadlines.js';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = fileURLToPath(new URL('../../dist/src/bin/autofix.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  options: {
    cwd?: string;
    env?: Record<string, string | undefined>;
    input?: string;
    /** Killed after this (default: a default test's own timeout; a hang guard only). */
    timeoutMs?: number;
  } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...cleanEnv(), ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? underLoad(30_000));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Starts the CLI and leaves it running (servers); the caller kills it. */
export function startCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined> } = {},
): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...cleanEnv(), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (out += b.toString()));
  return { child, output: () => out };
}

/** The test runner's environment minus anything that would change the CLI's behaviour. */
export function cleanEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const key of Object.keys(env)) {
    if (
      /^(APP_ID|PRIVATE_KEY|WEBHOOK_SECRET|WEBHOOK_PROXY_URL|ADMIN_PASSWORD|GHE_|OPENAI_|AUTOFIX_|REDIS_URL|PORT|NODE_OPTIONS)/.test(
        key,
      )
    ) {
      delete env[key];
    }
  }
  return env;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `fn` until it gives a value; the deadline only guards against a hang (deadlines.ts). */
export async function waitFor<T>(
  fn: () => Promise<T | undefined>,
  timeoutMs = WAIT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await fn();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting${lastError instanceof Error ? `: ${lastError.message}` : ''}`);
}
