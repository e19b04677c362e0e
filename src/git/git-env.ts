/**
 * The whole environment of a git command the bot runs (issue #11): an allowlist, never the
 * worker's environment, which holds the App's private key, the webhook secret, the LLM key and
 * the Redis URL at least until config/ scrubs them, plus whatever else the operator exported.
 * Anything git starts (a hook, a filter, an fsmonitor planted in a repository's config) inherits
 * this environment, so none of that may be in it.
 *
 * No system or global config (`GIT_CONFIG_NOSYSTEM`, `GIT_CONFIG_SYSTEM`, `GIT_CONFIG_GLOBAL`:
 * the latter two replace both `~/.gitconfig` and `$XDG_CONFIG_HOME/git/config` since git 2.32),
 * and a HOME that does not exist, so the worker's `~/.config/git/{attributes,ignore}` are not
 * read either. The settings of safe-git-config.ts and the token header travel as command-scope
 * config (`GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n`): like `-c`, but not visible in `ps`.
 */
import { AutofixError } from '../errors.js';
import { SAFE_GIT_CONFIG } from './safe-git-config.js';

/** Taken from the worker as they are: finding git, time zone, temporary files, HTTPS egress. */
const PASSED_THROUGH = [
  'PATH',
  'TZ',
  'TMPDIR',
  'http_proxy',
  'https_proxy',
  'HTTPS_PROXY',
  'all_proxy',
  'ALL_PROXY',
  'no_proxy',
  'NO_PROXY',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'GIT_SSL_CAINFO',
  'GIT_SSL_CAPATH',
  'GIT_PROXY_SSL_CAINFO',
] as const;

/**
 * What a caller may add for one command: which repository and index, pathspec handling, and
 * the commit identity. Everything else is ours to decide (a caller passing `GIT_CONFIG_*`,
 * `GIT_SSH_COMMAND` or `GIT_EXTERNAL_DIFF` would undo the point of this file).
 */
const CALLER_KEYS =
  /^GIT_(DIR|WORK_TREE|INDEX_FILE|LITERAL_PATHSPECS|(AUTHOR|COMMITTER)_(NAME|EMAIL|DATE))$/;

/** Only protocols our remotes use: GitHub over HTTP(S), local paths for `autofix run` and tests. */
export const ALLOWED_PROTOCOLS = 'https:http:file';

/** The Basic credentials git sends for `token` (what must be redacted besides the token). */
export function tokenHeaderValue(token: string): string {
  return Buffer.from(`x-access-token:${token}`).toString('base64');
}

function configEnv(token: string | undefined): Record<string, string> {
  const pairs: (readonly [string, string])[] = [...SAFE_GIT_CONFIG];
  if (token) pairs.push(['http.extraHeader', `Authorization: Basic ${tokenHeaderValue(token)}`]);
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(pairs.length) };
  pairs.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

export interface GitEnvOptions {
  /** Per-command variables (see CALLER_KEYS); anything else is refused. */
  extra?: Record<string, string>;
  /** Installation token for HTTPS remotes, sent as `http.extraHeader`. */
  token?: string;
}

export function gitEnv(
  parent: Record<string, string | undefined>,
  options: GitEnvOptions = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PASSED_THROUGH) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(options.extra ?? {})) {
    if (!CALLER_KEYS.test(name)) {
      throw new AutofixError(
        'INTERNAL',
        `git commands may not be given ${name}: only repository, index, pathspec and identity variables (${CALLER_KEYS.source})`,
        { recoverable: false },
      );
    }
    env[name] = value;
  }
  return {
    ...env,
    HOME: '/nonexistent',
    XDG_CONFIG_HOME: '/dev/null',
    LANG: 'C',
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_SYSTEM: '/dev/null',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    // Stronger than `protocol.*.allow` in any config: `ext::` (runs a command), ssh and git://
    // (run `core.sshCommand`/`core.gitProxy`) are refused whatever a repository says.
    GIT_ALLOW_PROTOCOL: ALLOWED_PROTOCOLS,
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: 'true',
    GIT_EDITOR: ':',
    GIT_SEQUENCE_EDITOR: ':',
    GIT_PAGER: 'cat',
    ...configEnv(options.token),
  };
}
