/**
 * Runs one git command for our own bookkeeping (not repository code: that goes through exec/).
 *
 * Git here runs outside the sandbox, on a mirror and worktrees that repository code could have
 * tampered with (issue #11): its environment is an allowlist with no system or global config and
 * command-scope settings that switch off every config key that runs a program (git-env.ts,
 * safe-git-config.ts); what a config can still name is scrubbed from the mirror before each job
 * (scrub-mirror.ts).
 *
 * Credentials travel per command as `http.extraHeader` (docs/SECURITY.md, rule 5), set through
 * git's `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n` environment rather than `-c` on
 * the command line: same effect (nothing written to `.git/config` or a remote URL) but not visible
 * to other users in `ps`. Every message we build is redacted of the token and its header form.
 */
import { createRedactor, maskSecret, type Redactor } from '../artifacts/redact.js';
import { AutofixError } from '../errors.js';
import { launch } from '../exec/launcher/launcher.js';
import { gitEnv, tokenHeaderValue } from './git-env.js';

export interface GitOptions {
  cwd: string;
  /** Data written to git's stdin. */
  input?: string;
  /** Installation token for HTTPS remotes; never written to disk. */
  token?: string;
  /**
   * Extra environment for this command: only GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE,
   * GIT_LITERAL_PATHSPECS and the author/committer variables (anything else is an error). The
   * worker's own environment is never passed on, apart from PATH, TZ, TMPDIR and the proxy and
   * CA variables HTTPS needs.
   */
  env?: Record<string, string>;
  /** Non-zero exit codes that are answers, not failures (e.g. 1 for `check-ignore`). */
  okCodes?: number[];
  /** Kill git after this long (network operations). Default 10 minutes. */
  timeoutMs?: number;
}

export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

/** A redactor for git's messages: the token, its header form, and well-known token shapes. */
export function gitRedactor(token: string | undefined): Redactor {
  return createRedactor(token ? [token, tokenHeaderValue(token)] : []);
}

/**
 * For git's output, which is data (paths, diffs): only the exact token values are masked, so a
 * file that merely looks like a token (a test fixture with `ghp_…`) comes through unchanged.
 */
function exactRedactor(token: string | undefined): (text: string) => string {
  if (!token) return (text) => text;
  const values = [token, tokenHeaderValue(token)];
  return (text) => values.reduce((out, v) => out.split(v).join(maskSecret(v)), text);
}

export async function runGit(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const redact = gitRedactor(options.token);
  const redactOutput = exactRedactor(options.token);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const env = gitEnv(process.env, { extra: options.env, token: options.token });
  const ran = await launch({
    file: 'git',
    args,
    cwd: options.cwd,
    env,
    input: options.input,
    timeoutMs,
  }).catch((e: unknown) => {
    const message = e instanceof Error ? e.message : String(e);
    throw new AutofixError('INTERNAL', `git could not start: ${redact(message)}`);
  });
  const result = {
    stdout: redactOutput(ran.stdout.toString('utf8')),
    stderr: redact(ran.stderr.toString('utf8')),
    code: ran.code ?? -1,
  };
  const shown = redact(args.join(' '));
  if (ran.timedOut) {
    throw new AutofixError('TIMEOUT', `git ${shown} timed out after ${timeoutMs} ms`, {
      details: { args: shown },
    });
  }
  if (result.code === 0 || options.okCodes?.includes(result.code)) return result;
  throw new AutofixError(
    'INTERNAL',
    `git ${shown} failed (exit ${result.code}): ${result.stderr.trim()}`,
    {
      details: { args: shown, exit_code: result.code, stderr: result.stderr },
    },
  );
}

/** Resolves a revision to a commit sha, or null when it does not exist. */
export async function revParse(cwd: string, rev: string): Promise<string | null> {
  const r = await runGit(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], {
    cwd,
    okCodes: [1, 128],
  });
  return r.code === 0 ? r.stdout.trim() : null;
}
