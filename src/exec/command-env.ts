/**
 * The environment a repository command sees: an allowlist, never the worker's own. GitHub, LLM
 * and Redis credentials live in the worker's environment, and repository code (tests, build
 * scripts, postinstall hooks) is exactly what must not read them.
 */

/** Always copied from the worker when set. */
const BASE_ALLOWLIST = ['PATH', 'HOME', 'LANG', 'TMPDIR'] as const;

/**
 * The app's own credentials: a repository's `env_passthrough` (written by whoever can push to
 * the default branch) cannot ask for these.
 */
const NEVER_PASSED: ReadonlySet<string> = new Set([
  'PRIVATE_KEY',
  'PRIVATE_KEY_PATH',
  'WEBHOOK_SECRET',
  'WEBHOOK_SECRET_FILE',
  'OPENAI_API_KEY',
  'OPENAI_API_KEY_FILE',
  'REDIS_URL',
  'ADMIN_PASSWORD',
  'ADMIN_PASSWORD_FILE',
  'GITHUB_TOKEN',
  'GH_TOKEN',
]);

export interface CommandEnvOptions {
  /** Where allowlisted values come from (the worker's environment). */
  baseEnv: NodeJS.ProcessEnv;
  /** The repository config's `env_passthrough`. */
  passthrough?: readonly string[];
  /** Values that win over the allowlist (a per-job HOME, the sandbox's TMPDIR). */
  overrides?: Record<string, string>;
}

export function buildCommandEnv(options: CommandEnvOptions): Record<string, string> {
  const env: Record<string, string> = {};
  const names = [
    ...BASE_ALLOWLIST,
    ...(options.passthrough ?? []).filter((n) => !NEVER_PASSED.has(n)),
  ];
  for (const name of names) {
    const value = options.baseEnv[name];
    if (value !== undefined) env[name] = value;
  }
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  env.CI = 'true';
  return { ...env, ...options.overrides };
}

/**
 * The values `env_passthrough` hands to repository commands: secrets of the repository's own
 * (`NPM_TOKEN`, `AWS_SECRET_ACCESS_KEY`), redacted like ours wherever command output goes.
 */
export function passthroughValues(
  names: readonly string[] | undefined,
  baseEnv: NodeJS.ProcessEnv = process.env,
): string[] {
  return (names ?? [])
    .filter((n) => !NEVER_PASSED.has(n))
    .map((n) => baseEnv[n])
    .filter((v): v is string => typeof v === 'string' && v !== '');
}
