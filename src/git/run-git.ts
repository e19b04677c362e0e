/**
 * Runs one git command for our own bookkeeping (not repository code: that goes through exec/).
 * Credentials travel per command as `-c http.extraHeader=…` and are redacted from every error.
 */
import { spawn } from 'node:child_process';
import { createRedactor } from '../artifacts/redact.js';
import { AutofixError } from '../errors.js';

export interface GitOptions {
  cwd: string;
  /** Data written to git's stdin. */
  input?: string;
  /** Installation token for HTTPS remotes; never written to disk. */
  token?: string;
  /** Extra environment (e.g. GIT_INDEX_FILE); the parent's environment is kept otherwise. */
  env?: Record<string, string>;
  /** Non-zero exit codes that are answers, not failures (e.g. 1 for `check-ignore`). */
  okCodes?: number[];
}

export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

export function authArgs(token: string | undefined): string[] {
  if (!token) return [];
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  return ['-c', `http.extraHeader=Authorization: Basic ${basic}`];
}

export async function runGit(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const redact = createRedactor(
    options.token
      ? [options.token, Buffer.from(`x-access-token:${options.token}`).toString('base64')]
      : [],
  );
  const argv = [...authArgs(options.token), ...args];
  return new Promise<GitResult>((resolve, reject) => {
    const child = spawn('git', argv, {
      cwd: options.cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) =>
      reject(new AutofixError('INTERNAL', `git could not start: ${e.message}`)),
    );
    child.on('close', (code) => {
      const result = {
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: redact(Buffer.concat(err).toString('utf8')),
        code: code ?? -1,
      };
      if (result.code === 0 || options.okCodes?.includes(result.code)) resolve(result);
      else {
        const shown = redact(args.join(' '));
        reject(
          new AutofixError(
            'INTERNAL',
            `git ${shown} failed (exit ${result.code}): ${result.stderr.trim()}`,
            {
              details: { args: shown, exit_code: result.code, stderr: result.stderr },
            },
          ),
        );
      }
    });
    child.stdin.on('error', () => undefined); // git may exit before reading all input
    child.stdin.end(options.input ?? '');
  });
}
