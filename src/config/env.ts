/**
 * Process environment → typed settings (README, Configuration). The only module that reads
 * `process.env` (callers pass it in). Every problem is reported at once, each with the variable's
 * name, and a secret's value never appears in a message.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { maskSecret } from '../artifacts/redact.js';
import { AutofixError } from '../errors.js';
import type { DotEnvLoad } from './dotenv.js';
import { readModelPricesFile, type PriceTable } from './model-prices.js';
import { readSecretVariable } from './secret-files.js';

/** `SETUP_CACHE_MAX_MB` when the operator sets none: 4 GiB of installed dependencies per repository. */
export const DEFAULT_SETUP_CACHE_MB = 4096;

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

const emptyToUndefined = (v: unknown): unknown =>
  typeof v === 'string' && v.trim() === '' ? undefined : v;
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const url = (protocols: readonly string[]) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => URL.canParse(v), { message: 'must be a URL' })
      .refine((v) => !URL.canParse(v) || protocols.includes(new URL(v).protocol), {
        message: `must use ${protocols.join(' or ')}`,
      })
      .optional(),
  );
const usd = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'must be an amount of USD greater than 0, e.g. 2.50')
    .transform(Number)
    .refine((n) => n > 0, 'must be an amount of USD greater than 0, e.g. 2.50')
    .optional(),
);
const port = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .regex(/^\d+$/, 'must be a port number 1-65535')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 65535, 'must be a port number 1-65535')
    .optional(),
);

/**
 * Every variable `readSettings` reads. `env-vars.ts` describes each (with those commander reads
 * for `serve` and `worker`); `test/unit/config/env-vars.test.ts` keeps the two, `.env.example`
 * and the README in step.
 */
export const envSchema = z.object({
  APP_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d+$/, "must be the App's numeric ID (the App's settings page shows it as App ID)")
      .optional(),
  ),
  PRIVATE_KEY: optionalString,
  PRIVATE_KEY_PATH: optionalString,
  WEBHOOK_SECRET: optionalString,
  WEBHOOK_SECRET_FILE: optionalString,
  GHE_HOST: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(
        /^[A-Za-z0-9.-]+(:\d+)?$/,
        'must be a host name with an optional port, without a scheme',
      )
      .optional(),
  ),
  GHE_PROTOCOL: z.preprocess(
    emptyToUndefined,
    z.enum(['http', 'https'], { error: 'must be http or https' }).optional(),
  ),
  GH_ORG: optionalString,
  REDIS_URL: url(['redis:', 'rediss:']),
  OPENAI_API_KEY: optionalString,
  OPENAI_API_KEY_FILE: optionalString,
  OPENAI_BASE_URL: url(['http:', 'https:']),
  AUTOFIX_MODEL: optionalString,
  AUTOFIX_WORKDIR: optionalString,
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).optional(),
  ),
  PORT: port,
  HOST: optionalString,
  ADMIN_PASSWORD: optionalString,
  ADMIN_PASSWORD_FILE: optionalString,
  AUTOFIX_SANDBOX: z.preprocess(
    emptyToUndefined,
    z
      .enum(['bwrap', 'none'], {
        error: 'must be bwrap (the default: repository code runs sandboxed) or none',
      })
      .optional(),
  ),
  AUTOFIX_RECONCILE_INTERVAL_MS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d+$/, 'must be milliseconds: 0 (off) or at least 10000')
      .transform(Number)
      .refine((n) => n === 0 || n >= 10_000, 'must be milliseconds: 0 (off) or at least 10000')
      .optional(),
  ),
  PARKED_RUN_TTL_HOURS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d+(\.\d+)?$/, 'must be hours, a positive number (default 168: 7 days)')
      .transform(Number)
      .refine((n) => n > 0, 'must be hours, a positive number (default 168: 7 days)')
      .optional(),
  ),
  SETUP_CACHE_MAX_MB: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d+$/, 'must be megabytes: 0 (no setup cache) or more (default 4096)')
      .transform(Number)
      .optional(),
  ),
  WEBHOOK_PROXY_URL: url(['http:', 'https:']),
  PUBLIC_URL: url(['http:', 'https:']),
  MAX_RUN_COST_USD: usd,
  INSTALLATION_DAILY_COST_USD: usd,
  INSTALLATION_MONTHLY_COST_USD: usd,
  REQUESTER_DAILY_COST_USD: usd,
  MODEL_PRICES_FILE: optionalString,
  AUTOFIX_ENV_FILE: optionalString,
  AUTOFIX_NETWORK_ALLOW: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => splitList(v).every((h) => HOST_PATTERN.test(h)), {
        message: 'must be host names (`*.example.com` and `:port` allowed), separated by commas',
      })
      .optional(),
  ),
});

/** A host name, `*.` wildcard and `:port` allowed (egress allowlists). */
export const HOST_PATTERN =
  /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*(:\d{1,5})?$/;

function splitList(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .map((h) => h.trim())
    .filter(Boolean);
}

export interface Settings {
  appId?: string;
  privateKey?: string;
  /** Where the private key was read from (hidden from repository commands). */
  privateKeyPath?: string;
  /**
   * Every file a secret was read from (`PRIVATE_KEY_PATH`, `*_FILE`): their directories are
   * hidden from repository commands.
   */
  secretFiles?: string[];
  webhookSecret?: string;
  /** Base URL of the GitHub REST API (github.com, GHE or a local fake). */
  githubApiUrl: string;
  redisUrl: string;
  openaiApiKey?: string;
  openaiBaseUrl?: string;
  model: string;
  workdir: string;
  /** `PARKED_RUN_TTL_HOURS`: how long a parked run waits for an answer before it ends. */
  parkedRunTtlMs: number;
  /**
   * `SETUP_CACHE_MAX_MB`: the disk bound of each repository's setup cache (installed
   * dependencies kept across runs, least recently used evicted); 0 turns it off.
   */
  setupCacheMaxMb: number;
  /**
   * `AUTOFIX_ENV_FILE`: the `.env` read at start and written by the setup page (its directory is
   * hidden from repository commands).
   */
  envFile: string;
  logLevel: (typeof LOG_LEVELS)[number];
  port: number;
  host?: string;
  adminPassword?: string;
  /**
   * How repository commands are isolated (`AUTOFIX_SANDBOX`): `bwrap` unless the operator typed
   * `none`. A repository's config cannot lower it.
   */
  sandbox: 'bwrap' | 'none';
  /** `AUTOFIX_NETWORK_ALLOW`: hosts `setup` may reach besides the defaults, even private ones. */
  networkAllow: string[];
  /**
   * `AUTOFIX_RECONCILE_INTERVAL_MS`: how often `serve` asks GitHub to redeliver webhook
   * deliveries that failed (0 = never).
   */
  reconcileIntervalMs: number;
  /**
   * `PUBLIC_URL`: how people reach `serve` (run-page links in comments); unset, no link is
   * printed.
   */
  publicUrl?: string;
  /**
   * The operator's money caps (README, Budgets in money); a repository's `cost_budget_usd` is
   * bounded by `maxRunUsd`.
   */
  costCaps: OperatorCostCaps;
  /** `MODEL_PRICES_FILE`: prices added to (or replacing) the defaults of `llm/prices.ts`. */
  modelPrices: PriceTable;
  /** Every secret value, for the redactor. */
  secrets: string[];
}

/** USD caps the operator sets; each absent one is no cap. */
export interface OperatorCostCaps {
  /** `MAX_RUN_COST_USD`: one run, whatever its repository says. */
  maxRunUsd?: number;
  /** `INSTALLATION_DAILY_COST_USD`: all runs of an installation in a UTC day. */
  installationDailyUsd?: number;
  /** `INSTALLATION_MONTHLY_COST_USD`: all runs of an installation in a UTC month. */
  installationMonthlyUsd?: number;
  /** `REQUESTER_DAILY_COST_USD`: all runs one person started in a UTC day. */
  requesterDailyUsd?: number;
}

function costCapsOf(e: z.infer<typeof envSchema>): OperatorCostCaps {
  return {
    ...(e.MAX_RUN_COST_USD === undefined ? {} : { maxRunUsd: e.MAX_RUN_COST_USD }),
    ...(e.INSTALLATION_DAILY_COST_USD === undefined
      ? {}
      : { installationDailyUsd: e.INSTALLATION_DAILY_COST_USD }),
    ...(e.INSTALLATION_MONTHLY_COST_USD === undefined
      ? {}
      : { installationMonthlyUsd: e.INSTALLATION_MONTHLY_COST_USD }),
    ...(e.REQUESTER_DAILY_COST_USD === undefined
      ? {}
      : { requesterDailyUsd: e.REQUESTER_DAILY_COST_USD }),
  };
}

const SECRET_VARS = new Set(['PRIVATE_KEY', 'WEBHOOK_SECRET', 'OPENAI_API_KEY', 'ADMIN_PASSWORD']);

export const DEFAULTS = {
  redisUrl: 'redis://127.0.0.1:6379',
  model: 'gpt-4.1-mini',
  port: 3000,
  logLevel: 'info',
  reconcileIntervalMs: 5 * 60_000,
} as const;

/** Describes an input value for an error message without revealing a secret. */
function shown(name: string, value: unknown): string {
  if (typeof value !== 'string') return '';
  if (SECRET_VARS.has(name)) return ` (got ${maskSecret(value)})`;
  return ` (got ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)})`;
}

/** The App's private key, inline (with `\\n` escapes allowed) or from a file. */
function readPrivateKey(
  env: Record<string, string | undefined>,
  problems: string[],
): string | undefined {
  const inline = env.PRIVATE_KEY?.trim();
  if (inline) return inline.replace(/\\n/g, '\n');
  const path = env.PRIVATE_KEY_PATH?.trim();
  if (!path) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    problems.push(`PRIVATE_KEY_PATH: cannot read ${path}: ${(err as Error).message}`);
    return undefined;
  }
}

/** The variables a problem is about: the names before its first `:` (`A and B: …`). */
function problemVars(problem: string): string[] {
  const head = /^([A-Z][A-Z0-9_]*(?: and [A-Z][A-Z0-9_]*)*):/.exec(problem)?.[1];
  return head ? head.split(' and ') : [];
}

/** `problem`, with the env file's line of each variable it names that the file set. */
function withOrigin(problem: string, dotEnv: DotEnvLoad | undefined): string {
  const names = problemVars(problem).filter((name) => dotEnv?.lines.has(name));
  if (!dotEnv || names.length === 0) return problem;
  const lineOf = (name: string) => `line ${dotEnv.lines.get(name)}`;
  const where =
    names.length === 1 ? lineOf(names[0]!) : names.map((n) => `${n} at ${lineOf(n)}`).join(', ');
  return `${problem} (set in ${dotEnv.path}, ${where})`;
}

/** A private key cut after its first line (pasted over lines without quotes), or not a PEM key. */
function keyProblem(privateKey: string, inline: boolean): string | undefined {
  const pem = /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(privateKey);
  if (pem && inline && !/-----END /.test(privateKey))
    return (
      'PRIVATE_KEY: holds the first line of a key only (no -----END line): in .env, put the ' +
      'whole key in double quotes or write it on one line with \\n for each line break, or set ' +
      'PRIVATE_KEY_PATH to the key file instead'
    );
  if (!pem)
    return `PRIVATE_KEY: is not a PEM private key (got ${maskSecret(privateKey.trim())}): paste the whole .pem file the App's settings page gave, or set PRIVATE_KEY_PATH to it`;
  return undefined;
}

/** Every problem of `env`, each by variable name with its fix; secrets' values never shown. */
function collectProblems(
  env: Record<string, string | undefined>,
  parsed: ReturnType<typeof envSchema.safeParse>,
  problems: string[],
): void {
  if (parsed.success) return;
  for (const issue of parsed.error.issues) {
    const name = String(issue.path[0]);
    problems.push(`${name}: ${issue.message}${shown(name, env[name])}`);
  }
}

export interface ReadSettingsOptions {
  /** The env file `loadDotEnv` applied to `env`: its problems, and which line set what. */
  dotEnv?: DotEnvLoad;
}

export function readSettings(
  env: Record<string, string | undefined> = process.env,
  options: ReadSettingsOptions = {},
): Settings {
  const parsed = envSchema.safeParse(env);
  const problems: string[] = [];
  collectProblems(env, parsed, problems);
  const privateKey = readPrivateKey(env, problems);
  const badKey = privateKey && keyProblem(privateKey, Boolean(env.PRIVATE_KEY?.trim()));
  if (badKey) problems.push(badKey);
  const webhookSecret = readSecretVariable(env, 'WEBHOOK_SECRET', problems);
  const openaiApiKey = readSecretVariable(env, 'OPENAI_API_KEY', problems);
  const adminPassword = readSecretVariable(env, 'ADMIN_PASSWORD', problems);
  const modelPrices = readModelPricesFile(env.MODEL_PRICES_FILE?.trim() || undefined, problems);
  const all = [
    ...(options.dotEnv?.problems ?? []),
    ...problems.map((p) => withOrigin(p, options.dotEnv)),
  ];
  if (all.length > 0 || !parsed.success) {
    throw new AutofixError(
      'CONFIG_INVALID',
      `Invalid environment (${all.length} problem${all.length > 1 ? 's' : ''}):\n` +
        all.map((p) => `  - ${p}`).join('\n'),
      { details: { problems: all } },
    );
  }

  const e = parsed.data;
  const protocol = e.GHE_PROTOCOL ?? 'https';
  const settings: Settings = {
    githubApiUrl: e.GHE_HOST ? `${protocol}://${e.GHE_HOST}/api/v3` : 'https://api.github.com',
    redisUrl: e.REDIS_URL ?? DEFAULTS.redisUrl,
    model: e.AUTOFIX_MODEL ?? DEFAULTS.model,
    workdir: e.AUTOFIX_WORKDIR ?? join(homedir(), '.autofix'),
    // The file actually read: an AUTOFIX_ENV_FILE inside it does not move it.
    envFile: options.dotEnv?.path ?? e.AUTOFIX_ENV_FILE ?? '.env',
    logLevel: e.LOG_LEVEL ?? DEFAULTS.logLevel,
    port: e.PORT ?? DEFAULTS.port,
    sandbox: e.AUTOFIX_SANDBOX ?? 'bwrap',
    networkAllow: e.AUTOFIX_NETWORK_ALLOW ? splitList(e.AUTOFIX_NETWORK_ALLOW) : [],
    reconcileIntervalMs: e.AUTOFIX_RECONCILE_INTERVAL_MS ?? DEFAULTS.reconcileIntervalMs,
    costCaps: costCapsOf(e),
    modelPrices,
    parkedRunTtlMs: (e.PARKED_RUN_TTL_HOURS ?? 168) * 3600_000,
    setupCacheMaxMb: e.SETUP_CACHE_MAX_MB ?? DEFAULT_SETUP_CACHE_MB,
    secrets: [
      privateKey,
      webhookSecret.value,
      openaiApiKey.value,
      adminPassword.value,
      redisPassword(e.REDIS_URL),
    ].filter((s): s is string => typeof s === 'string' && s.length > 0),
  };
  if (e.APP_ID) settings.appId = e.APP_ID;
  if (privateKey) settings.privateKey = privateKey;
  if (env.PRIVATE_KEY_PATH?.trim() && !env.PRIVATE_KEY?.trim())
    settings.privateKeyPath = env.PRIVATE_KEY_PATH.trim();
  const secretFiles = [
    settings.privateKeyPath,
    webhookSecret.file,
    openaiApiKey.file,
    adminPassword.file,
  ].filter((f): f is string => f !== undefined);
  if (secretFiles.length > 0) settings.secretFiles = secretFiles;
  if (webhookSecret.value) settings.webhookSecret = webhookSecret.value;
  if (openaiApiKey.value) settings.openaiApiKey = openaiApiKey.value;
  if (e.OPENAI_BASE_URL) settings.openaiBaseUrl = e.OPENAI_BASE_URL;
  if (e.HOST) settings.host = e.HOST;
  if (e.PUBLIC_URL) settings.publicUrl = e.PUBLIC_URL;
  if (adminPassword.value) settings.adminPassword = adminPassword.value;
  return settings;
}

type SecretField = 'privateKey' | 'webhookSecret' | 'openaiApiKey' | 'adminPassword';

/**
 * `settings` without the secrets a process does not use (a worker never checks a webhook
 * signature nor the admin password; `autofix run` needs only the LLM key). `secrets`, the
 * redactor's list, stays whole: every secret is still masked.
 */
export function withoutSecrets(settings: Settings, ...unused: SecretField[]): Settings {
  const kept = { ...settings };
  for (const field of unused) delete kept[field];
  return kept;
}

function redisPassword(url: string | undefined): string | undefined {
  if (!url || !URL.canParse(url)) return undefined;
  const password = decodeURIComponent(new URL(url).password);
  return password || undefined;
}

export type Capability = 'llm' | 'github';

const REQUIRED: Record<Capability, { vars: string; has: (s: Settings) => boolean }[]> = {
  llm: [
    {
      vars: 'OPENAI_API_KEY',
      // Local servers (Ollama, llama.cpp) need no key, but then the base URL must be set.
      has: (s) => Boolean(s.openaiApiKey) || Boolean(s.openaiBaseUrl),
    },
  ],
  github: [
    { vars: 'APP_ID', has: (s) => Boolean(s.appId) },
    { vars: 'PRIVATE_KEY or PRIVATE_KEY_PATH', has: (s) => Boolean(s.privateKey) },
    { vars: 'WEBHOOK_SECRET', has: (s) => Boolean(s.webhookSecret) },
  ],
};

/** Lists, all together, the variables a capability still needs. */
export function missingFor(settings: Settings, ...caps: Capability[]): string[] {
  return caps.flatMap((cap) => REQUIRED[cap].filter((r) => !r.has(settings)).map((r) => r.vars));
}

export function requireSettings(settings: Settings, ...caps: Capability[]): void {
  const missing = missingFor(settings, ...caps);
  if (missing.length > 0) {
    const note = missing.includes('OPENAI_API_KEY')
      ? ' (OPENAI_API_KEY may be omitted for a local server when OPENAI_BASE_URL is set)'
      : '';
    throw new AutofixError(
      'CONFIG_INVALID',
      `Missing environment: set ${missing.join(', ')}${note}.`,
      {
        details: { missing },
      },
    );
  }
}

/**
 * The GitHub App credentials that are set, by variable name. None at all is the only case for
 * `serve`'s setup mode; some but not all is a configuration error that names what is missing.
 */
export function givenAppCredentials(settings: Settings): string[] {
  return [
    settings.appId ? 'APP_ID' : undefined,
    settings.privateKeyPath ? 'PRIVATE_KEY_PATH' : settings.privateKey ? 'PRIVATE_KEY' : undefined,
    settings.webhookSecret ? 'WEBHOOK_SECRET' : undefined,
  ].filter((name): name is string => name !== undefined);
}
