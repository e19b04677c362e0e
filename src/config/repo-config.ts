/**
 * `.github/autofix.yml` (README, Configuration): the per-repository settings, read from the default
 * branch. Every key is optional and documented; unknown keys are errors so a typo is not
 * silently ignored.
 */
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { StageName } from '../contracts.js';
import { AutofixError } from '../errors.js';
import { didYouMean } from './did-you-mean.js';
import { HOST_PATTERN } from './env.js';

export const EDIT_FORMATS = ['udiff', 'fenced-files', 'json-writes', 'edit-ops'] as const;
export type EditFormat = (typeof EDIT_FORMATS)[number];
export const CODE_STRATEGIES = ['one-shot', 'tools', 'auto'] as const;
export type CodeStrategy = (typeof CODE_STRATEGIES)[number];

const stageModels = z
  .object({
    /** Model for the triage stage; defaults to `AUTOFIX_MODEL`. */
    triage: z.string().min(1).optional(),
    /** Model for the planner stage. */
    plan: z.string().min(1).optional(),
    /** Model for the reproducer (the failing test before the fix); defaults to `code`'s. */
    reproduce: z.string().min(1).optional(),
    /** Model for the code agent and code fixer. */
    code: z.string().min(1).optional(),
    /** Model for the PR summary paragraph. */
    pr: z.string().min(1).optional(),
  })
  .strict();

const command = z.string().trim().min(1, 'must be a non-empty command');

export const RISKS = ['LOW', 'MEDIUM', 'HIGH'] as const;

/** When `plan_approval: auto` asks for approval: either threshold reached is enough. */
const planApprovalAuto = z
  .object({
    /** The lowest triage risk that needs approval. */
    risk: z.enum(RISKS, { error: 'must be LOW, MEDIUM or HIGH' }).default('MEDIUM'),
    /** A plan that changes at least this many files needs approval. */
    files: z
      .number({ error: 'must be a whole number of files (at least 1)' })
      .int('must be a whole number of files (at least 1)')
      .min(1, 'must be a whole number of files (at least 1)')
      .default(5),
  })
  .strict();

export const repoConfigSchema = z
  .object({
    /** Label that starts a run when added to an issue. */
    trigger_label: z.string().min(1).default('autofix'),
    /** Slash command that starts a run from a comment (`/autofix more detail`). */
    command: z
      .string()
      .regex(/^\/[a-z][a-z0-9-]*$/, 'must look like /autofix')
      .default('/autofix'),
    /** Model per stage (OpenAI-compatible model names). */
    models: stageModels.default({}),
    /** How the LLM writes changes. */
    edit_format: z.enum(EDIT_FORMATS).default('udiff'),
    /**
     * How the code agent works: `one-shot` (one answer per planned file over the ranked view, for
     * any model), `tools` (a loop where the model reads, searches, runs tests and edits through
     * tools), or `auto` (tools when the endpoint answers tool calls, asked once per endpoint and
     * model and remembered).
     */
    code_strategy: z.enum(CODE_STRATEGIES).default('one-shot'),
    /** Repair rounds after a failed validation or a refused edit. */
    max_repair_attempts: z.number().int().min(0).max(10).default(3),
    /** Highest triage risk the bot will act on. */
    risk_threshold: z.enum(RISKS).default('MEDIUM'),
    /** Open every PR as a draft (PRs of MEDIUM or HIGH risk are always drafts). */
    draft_prs: z.boolean().default(false),
    /** Branch prefix; branches are `<prefix><type>/<issue>-<slug>`. */
    branch_prefix: z
      .string()
      .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/$/, 'must be path segments ending in /')
      .default('autofix/'),
    /** Commands run before validation (network allowed), e.g. `npm ci`. */
    setup: z.array(command).default([]),
    /** Validation commands (no network under the sandbox); the first failure stops the run. */
    validate: z.array(command).default([]),
    /**
     * Run `validate` once on the base commit too (cached per commit and config), so that a
     * failure that already exists there is reported as pre-existing, not blamed on the change.
     */
    baseline: z.boolean().default(true),
    /**
     * A test that shows the bug, written before the fix: it must fail on the base commit (for the
     * reason the issue gives, not a load error) and pass with the fix, and it is committed with
     * it. `auto`: for issues triaged as bugs in repositories with `validate` commands; when none
     * can be written the run says so and goes on. `required`: the run stops without one. `off`.
     */
    reproduce: z.enum(['auto', 'required', 'off']).default('auto'),
    /**
     * Follow-up on the repository's own CI for the bot's PRs: when a counted check fails on the
     * PR's head (and not on the base branch too), the failing jobs' logs go to the fixer and one
     * repair commit is pushed. At most this many rounds per PR; 0 turns the follow-up off. A round
     * whose failure is the same as the previous round's stops the follow-up.
     */
    ci_fix_attempts: z.number().int().min(0).max(5).default(2),
    /**
     * Which failing checks the follow-up acts on: `required` (the base branch's required status
     * checks, from branch protection and rulesets; none required means none counted) or `all`.
     */
    ci_checks: z.enum(['required', 'all']).default('required'),
    /** Extra glob patterns the bot must never write. */
    protected_paths: z.array(z.string().min(1)).default([]),
    /** When non-empty, the bot may write only paths matching one of these globs. */
    allowed_paths: z.array(z.string().min(1)).default([]),
    /**
     * Total prompt + completion tokens one run may use: the cap of calls to models without a
     * price (local servers), and of every call when no money cap applies.
     */
    token_budget: z.number().int().positive().default(400_000),
    /**
     * USD one run may spend on priced models; the operator's `MAX_RUN_COST_USD` bounds it (the
     * smaller wins). A run that would cross it pauses; `/autofix continue` allows as much again.
     */
    cost_budget_usd: z.number().positive().optional(),
    /**
     * `auto`: the operator's sandbox (bubblewrap unless the worker's operator set
     * `AUTOFIX_SANDBOX=none`); `bwrap`: always sandboxed. A repository can only make the policy
     * stricter: `none` is refused.
     */
    sandbox: z
      .enum(['auto', 'bwrap'], {
        error: (issue) =>
          issue.input === 'none'
            ? 'a repository cannot turn the sandbox off: only the operator of the Autofix worker can ' +
              "(AUTOFIX_SANDBOX=none); use `auto` (the operator's sandbox) or `bwrap`"
            : "must be `auto` (the operator's sandbox) or `bwrap`",
      })
      .default('auto'),
    /**
     * Hosts `setup` commands may reach besides the default package registries (`*.example.com`
     * and `:port` allowed). They must resolve to public addresses; `validate` has no network.
     */
    network_allow: z
      .array(
        z.string().regex(HOST_PATTERN, 'must be a host name (`*.example.com` and `:port` allowed)'),
      )
      .default([]),
    /** Environment variable names passed through to repository commands. */
    env_passthrough: z
      .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name'))
      .default([]),
    /** Time limit for one setup or validation command. */
    command_timeout_seconds: z.number().int().positive().max(3600).default(600),
    /** Let the fixer change files the plan did not name when it explains why. */
    allow_plan_amendments: z.boolean().default(false),
    /**
     * Whether a maintainer approves the plan before any code is written: `off`, `required` (every
     * run waits after plan for `/autofix approve` or `/autofix plan <changes>`), or `auto`
     * (required when `plan_approval_auto`'s risk or file count is reached).
     */
    plan_approval: z
      .enum(['off', 'required', 'auto'], { error: 'must be `off`, `required` or `auto`' })
      .default('off'),
    /** The thresholds of `plan_approval: auto`. */
    plan_approval_auto: planApprovalAuto.default({ risk: 'MEDIUM', files: 5 }),
    /** Labels added to the pull request. */
    labels: z.array(z.string().min(1)).default(['autofix']),
  })
  .strict();

/** The model a stage uses: its own from `models`, else (reproduce) the code stage's, else the default. */
export function stageModelOf(
  models: RepoConfig['models'],
  stage: StageName,
  fallback: string,
): string {
  // `verify` asks no model: it runs the repository's commands only.
  const own = stage === 'verify' ? undefined : models[stage];
  return own ?? (stage === 'reproduce' ? models.code : undefined) ?? fallback;
}

export type RepoConfig = z.infer<typeof repoConfigSchema>;

export const DEFAULT_REPO_CONFIG: RepoConfig = repoConfigSchema.parse({});

/** The keys an object of the config may hold, by its path (`''` is the top level). */
const KNOWN_KEYS: Record<string, readonly string[]> = {
  '': Object.keys(repoConfigSchema.shape),
  models: Object.keys(stageModels.shape),
  plan_approval_auto: Object.keys(planApprovalAuto.shape),
};

/** `unknown key`, with the known key it most likely meant (`validat` → `validate`). */
function unknownKeyMessage(key: string, path: readonly PropertyKey[]): string {
  const suggestion = didYouMean(key, KNOWN_KEYS[path.join('.')] ?? []);
  return suggestion ? `unknown key; did you mean \`${suggestion}\`?` : 'unknown key';
}

/** Parses the YAML text of `.github/autofix.yml`; an empty or missing file gives the defaults. */
export function parseRepoConfig(
  text: string | undefined,
  source = '.github/autofix.yml',
): RepoConfig {
  if (text === undefined || text.trim() === '') return DEFAULT_REPO_CONFIG;
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    throw new AutofixError(
      'CONFIG_INVALID',
      `${source} is not valid YAML: ${(err as Error).message}`,
      {
        details: { problems: [{ key: '(file)', message: (err as Error).message }] },
      },
    );
  }
  if (raw === null || raw === undefined) return DEFAULT_REPO_CONFIG;
  const parsed = repoConfigSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.flatMap((issue) => {
    if (issue.code !== 'unrecognized_keys') {
      return [{ key: issue.path.join('.') || '(root)', message: issue.message }];
    }
    return issue.keys.map((k) => ({
      key: [...issue.path, k].join('.'),
      message: unknownKeyMessage(k, issue.path),
    }));
  });
  throw new AutofixError(
    'CONFIG_INVALID',
    `${source} has ${problems.length} invalid key${problems.length > 1 ? 's' : ''}:\n` +
      problems.map((p) => `  - \`${p.key}\`: ${p.message}`).join('\n'),
    { details: { problems } },
  );
}
