/**
 * Every environment variable Autofix reads, described once: the `Environment:` section of
 * `--help`, `.env.example` and the README's tables follow it, and
 * `test/unit/config/env-vars.test.ts` checks it against what the code reads (`envSchema` of
 * env.ts, the options commander fills from the environment) and against those files. No imports:
 * `--help` loads it.
 */

export type EnvReader = 'serve' | 'worker' | 'run' | 'compose';

export interface EnvVar {
  name: string;
  /**
   * `required`: the app does not work without it (the setup page writes the App's three);
   * `compose`: read by docker-compose.yml only, which refuses to start without it.
   */
  group: 'required' | 'optional' | 'compose';
  /** One line: what it is, and the default when unset. */
  about: string;
  /** The commands that read it (`compose`: docker-compose.yml). */
  readBy: readonly EnvReader[];
}

const APP: readonly EnvReader[] = ['serve', 'worker'];
const LLM: readonly EnvReader[] = ['serve', 'worker', 'run'];

export const ENV_VARS: readonly EnvVar[] = [
  { name: 'APP_ID', group: 'required', about: "the GitHub App's ID", readBy: APP },
  {
    name: 'PRIVATE_KEY',
    group: 'required',
    about: "the App's private key (PEM; in .env in double quotes, or one line with \\n)",
    readBy: APP,
  },
  {
    name: 'WEBHOOK_SECRET',
    group: 'required',
    about: "the App's webhook secret (workers: only to sign run-page links)",
    readBy: APP,
  },
  {
    name: 'OPENAI_API_KEY',
    group: 'required',
    about: 'LLM key (may be omitted for a local server when OPENAI_BASE_URL is set)',
    readBy: LLM,
  },
  { name: 'REDIS_PASSWORD', group: 'compose', about: "Redis's password", readBy: ['compose'] },
  {
    name: 'AUTOFIX_WORKER_TARGET',
    group: 'optional',
    about: "the workers' image target: default, or worker-full (Python, Go, Java; README)",
    readBy: ['compose'],
  },
  {
    name: 'PRIVATE_KEY_PATH',
    group: 'optional',
    about: 'the private key read from this file instead of PRIVATE_KEY',
    readBy: APP,
  },
  {
    name: 'WEBHOOK_SECRET_FILE',
    group: 'optional',
    about: 'WEBHOOK_SECRET read from this file',
    readBy: APP,
  },
  {
    name: 'OPENAI_API_KEY_FILE',
    group: 'optional',
    about: 'OPENAI_API_KEY read from this file',
    readBy: LLM,
  },
  {
    name: 'OPENAI_BASE_URL',
    group: 'optional',
    about: 'any OpenAI-compatible endpoint (default: OpenAI)',
    readBy: LLM,
  },
  {
    name: 'AUTOFIX_MODEL',
    group: 'optional',
    about: 'default model of every stage (default: gpt-4.1-mini)',
    readBy: LLM,
  },
  {
    name: 'AUTOFIX_WORKDIR',
    group: 'optional',
    about: 'workspace cache and run artifacts (default: ~/.autofix)',
    readBy: LLM,
  },
  {
    name: 'SETUP_CACHE_MAX_MB',
    group: 'optional',
    about:
      "disk bound of each repository's setup cache, least recently used evicted; 0: off (default: 4096)",
    readBy: LLM,
  },
  {
    name: 'PARKED_RUN_TTL_HOURS',
    group: 'optional',
    about:
      'how long a paused run waits for /autofix continue or approve before it ends (default: 168)',
    readBy: APP,
  },
  {
    name: 'LOG_LEVEL',
    group: 'optional',
    about: 'trace, debug, info, warn, error, fatal or silent (default: info; run: warn)',
    readBy: LLM,
  },
  {
    name: 'AUTOFIX_NETWORK_ALLOW',
    group: 'optional',
    about: 'extra hosts setup commands may reach, comma-separated',
    readBy: LLM,
  },
  {
    name: 'MAX_RUN_COST_USD',
    group: 'optional',
    about: "USD one run may spend; bounds a repository's cost_budget_usd (default: no cap)",
    readBy: APP,
  },
  {
    name: 'INSTALLATION_DAILY_COST_USD',
    group: 'optional',
    about: "USD an installation's runs may spend per UTC day (default: no cap)",
    readBy: APP,
  },
  {
    name: 'INSTALLATION_MONTHLY_COST_USD',
    group: 'optional',
    about: "USD an installation's runs may spend per UTC month (default: no cap)",
    readBy: APP,
  },
  {
    name: 'REQUESTER_DAILY_COST_USD',
    group: 'optional',
    about: 'USD the runs one person starts may spend per UTC day (default: no cap)',
    readBy: APP,
  },
  {
    name: 'MODEL_PRICES_FILE',
    group: 'optional',
    about: 'JSON of model prices (USD per million tokens) added to the built-in table',
    readBy: LLM,
  },
  {
    name: 'GHE_HOST',
    group: 'optional',
    about: 'GitHub Enterprise host, without a scheme (default: github.com)',
    readBy: APP,
  },
  { name: 'GHE_PROTOCOL', group: 'optional', about: 'http or https (default)', readBy: APP },
  {
    name: 'GH_ORG',
    group: 'optional',
    about: 'the setup page registers the App under this organization (default: your account)',
    readBy: ['serve'],
  },
  {
    name: 'REDIS_URL',
    group: 'optional',
    about: 'Redis of the queues (default: redis://127.0.0.1:6379)',
    readBy: APP,
  },
  { name: 'PORT', group: 'optional', about: 'HTTP port (default: 3000)', readBy: ['serve'] },
  {
    name: 'HOST',
    group: 'optional',
    about: 'HTTP listen address (default: 0.0.0.0)',
    readBy: APP,
  },
  {
    name: 'ADMIN_PASSWORD',
    group: 'optional',
    about: 'password of the queue dashboard and of the status page details (default: off)',
    readBy: ['serve'],
  },
  {
    name: 'ADMIN_PASSWORD_FILE',
    group: 'optional',
    about: 'ADMIN_PASSWORD read from this file',
    readBy: ['serve'],
  },
  {
    name: 'PUBLIC_URL',
    group: 'optional',
    about: 'how people reach serve, for run-page links in comments (default: no links)',
    readBy: APP,
  },
  {
    name: 'WEBHOOK_PROXY_URL',
    group: 'optional',
    about: 'smee.io channel to relay webhooks from (local development)',
    readBy: ['serve'],
  },
  {
    name: 'AUTOFIX_ENV_FILE',
    group: 'optional',
    about: 'the .env read at start and written by the setup page (default: .env)',
    readBy: APP,
  },
  {
    name: 'AUTOFIX_SANDBOX',
    group: 'optional',
    about: 'bwrap (default) or none: how repository commands run',
    readBy: APP,
  },
  {
    name: 'AUTOFIX_RECONCILE_INTERVAL_MS',
    group: 'optional',
    about: 'how often failed webhook deliveries are redelivered; 0 = off (default: 300000)',
    readBy: ['serve'],
  },
  {
    name: 'AUTOFIX_QUEUE_PREFIX',
    group: 'optional',
    about: '--queue-prefix (default: autofix)',
    readBy: APP,
  },
  {
    name: 'AUTOFIX_CONCURRENCY',
    group: 'optional',
    about: '--concurrency (default: triage=4,plan=4,code=2,pr=4)',
    readBy: APP,
  },
  {
    name: 'AUTOFIX_RATE_LIMIT',
    group: 'optional',
    about: '--rate-limit (default: 30/60s)',
    readBy: APP,
  },
  {
    name: 'AUTOFIX_SHUTDOWN_DEADLINE',
    group: 'optional',
    about: '--shutdown-deadline (default: 60)',
    readBy: APP,
  },
  {
    name: 'AUTOFIX_STALLED_AFTER',
    group: 'optional',
    about: '--stalled-after (default: 60)',
    readBy: APP,
  },
];

/** The `Environment:` section of a command's `--help`: the variables it reads. */
export function environmentHelp(command: Exclude<EnvReader, 'compose'>): string {
  const vars = ENV_VARS.filter((v) => v.readBy.includes(command));
  const width = Math.max(...vars.map((v) => v.name.length));
  const line = (v: EnvVar) =>
    `  ${v.name.padEnd(width)}  ${v.group === 'required' ? '(required) ' : ''}${v.about}`;
  const env = command === 'run' ? '' : ' (and .env, or the file AUTOFIX_ENV_FILE names)';
  return `\nEnvironment${env}:\n${vars.map(line).join('\n')}\n`;
}
