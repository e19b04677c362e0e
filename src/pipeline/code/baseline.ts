/**
 * The base commit's own validation result, and the rule that decides whether a failure after the
 * change is the change's (pure).
 *
 * The rule, per `validate` command, in order:
 * 1. It passes after the change: fine.
 * 2. It passed on the base commit (or there is no baseline): the change broke it.
 * 3. It failed on the base commit too:
 *    - it now times out and did not before: the change's;
 *    - the runner's summary counts more failures than on the base commit: the change's;
 *    - both outputs name what failed (tests, suites, compiler errors — `failure-signature.ts`):
 *      any name that was not failing on the base commit is the change's; only the same (or
 *      fewer) failures are pre-existing;
 *    - one output names failures and the other does not (e.g. a compile error now stops the
 *      runner before any test): the change's;
 *    - neither names anything: pre-existing when the exit code is the same, and the report says
 *      it could not be compared test by test.
 * 4. A failure pre-existing by these rules whose output names what the issue is about (a file the
 *    change touched, a path or identifier from the issue) is still the change's to fix: it is the
 *    failing test that shows the bug. Only a network failure is excused even then.
 * A pre-existing failure is not sent to the fixer; the run goes on to the next command and its
 * report says which failures were already there.
 */
import { createHash } from 'node:crypto';
import type { CommandResult } from '../../contracts.js';
import type { RepoConfig } from '../../config/repo-config.js';
import {
  failureCount,
  failureNames,
  looksLikeNetworkFailure,
} from '../../exec/failure-signature.js';
import { tailOf } from '../../text/keep-ends.js';
import { commandOutput } from './failure-brief.js';

export interface BaselineCommand {
  command: string;
  exit_code: number | null;
  timed_out: boolean;
  /** What the output named as failing; null when it named nothing (or the command passed). */
  failures: string[] | null;
  /** How many failed, by the runner's summary line; null when it printed none. */
  failed_count?: number | null;
  /** The failure looks like a command that needed the network. */
  network: boolean;
  /** The end of its output, bounded. */
  tail: string;
}

export interface Baseline {
  /** The commit validated (the job's starting point). */
  commit: string;
  key: string;
  commands: BaselineCommand[];
  created_at: string;
}

export type Verdict =
  | {
      kind: 'new';
      newFailures: string[] | null;
      /** It failed the same way on the base commit, but it is about what the issue names. */
      aboutTheIssue?: true;
    }
  | { kind: 'preexisting'; note: string };

/** Bump when the stored shape or the rule changes: old entries are then ignored. */
// 4: failure names and counts read by `test-output/` (ESLint's summary is no longer a name).
const BASELINE_VERSION = 4;

export type BaselineConfig = Pick<
  RepoConfig,
  'setup' | 'validate' | 'env_passthrough' | 'command_timeout_seconds' | 'network_allow' | 'sandbox'
>;

export function baselineKey(commit: string, config: BaselineConfig, sandboxMode: string): string {
  const { setup, validate, env_passthrough, command_timeout_seconds, network_allow, sandbox } =
    config;
  return createHash('sha256')
    .update(
      JSON.stringify({
        v: BASELINE_VERSION,
        commit,
        setup,
        validate,
        env_passthrough,
        command_timeout_seconds,
        network_allow,
        sandbox,
        sandboxMode,
      }),
    )
    .digest('hex');
}

export function failedCommand(result: CommandResult): boolean {
  return result.exit_code !== 0 || result.timed_out;
}

export function baselineEntry(result: CommandResult): BaselineCommand {
  const output = commandOutput(result);
  const failed = failedCommand(result);
  const names = failed ? failureNames(output) : null;
  return {
    command: result.command,
    exit_code: result.exit_code,
    timed_out: result.timed_out,
    failures: names ? [...names].sort() : null,
    failed_count: failed ? failureCount(output) : null,
    network: failed && looksLikeNetworkFailure(output),
    tail: failed ? tailOf(output, 20, 2_000) : '',
  };
}

/**
 * `aboutTheIssue(output)`: whether a failure's output names what the issue is about (a file the
 * change touched, a path or identifier the issue names). Such a failure that already existed is
 * the issue itself — the failing test that shows the bug — and the change must make it pass; only
 * a network failure stays excused (validate has no network, no change can fix that).
 */
export function judgeFailure(
  result: CommandResult,
  base: BaselineCommand | undefined,
  aboutTheIssue?: (output: string) => boolean,
): Verdict {
  const verdict = judgeAgainstBase(result, base);
  if (verdict.kind === 'new' || !aboutTheIssue) return verdict;
  const output = commandOutput(result);
  if (looksLikeNetworkFailure(output) || !aboutTheIssue(withoutPassingLines(output))) {
    return verdict;
  }
  return { kind: 'new', newFailures: null, aboutTheIssue: true };
}

/** Lines that report a passing test say nothing about what failed. */
const PASSING = /^\s*(?:ok \d+\b|[✓✔√]|PASS\b)/;

function withoutPassingLines(output: string): string {
  return output
    .split('\n')
    .filter((line) => !PASSING.test(line))
    .join('\n');
}

function judgeAgainstBase(result: CommandResult, base: BaselineCommand | undefined): Verdict {
  if (!base || (base.exit_code === 0 && !base.timed_out)) {
    return { kind: 'new', newFailures: null };
  }
  if (result.timed_out && !base.timed_out) return { kind: 'new', newFailures: null };
  const output = commandOutput(result);
  const after = failureNames(output);
  const before = base.failures ? new Set(base.failures) : null;
  // More failures than on the base commit, by the runner's own count, is the change's.
  const countAfter = failureCount(output);
  const countBefore = base.failed_count ?? null;
  if (countAfter !== null && countBefore !== null && countAfter > countBefore) {
    const added = after && before ? [...after].filter((n) => !before.has(n)).sort() : [];
    return { kind: 'new', newFailures: added.length > 0 ? added : null };
  }
  if (after && before) {
    const added = [...after].filter((n) => !before.has(n)).sort();
    if (added.length > 0) return { kind: 'new', newFailures: added };
    return {
      kind: 'preexisting',
      note: `\`${result.command}\` already fails on the base commit (${countOf(before.size)}: ${list(base.failures ?? [])}); it fails the same way with the change, so it is not counted against it.`,
    };
  }
  if (after || before) return { kind: 'new', newFailures: after ? [...after].sort() : null };
  if (result.exit_code !== base.exit_code) return { kind: 'new', newFailures: null };
  return {
    kind: 'preexisting',
    note: `\`${result.command}\` already fails on the base commit (exit ${base.exit_code ?? 'none'}), and with the change it fails with the same exit code; its output names no tests, so the two could not be compared test by test — check its log.`,
  };
}

/** The extra words for a pre-existing failure that looks like it needs the network. */
export function networkHint(base: BaselineCommand | undefined): string | undefined {
  if (!base?.network) return undefined;
  return (
    'Its output looks like it needed the network: `validate` commands run without any network. ' +
    'Mock those calls, or leave those tests out of `validate:` in `.github/autofix.yml`; only ' +
    '`setup:` commands may reach the package registries and the hosts in `network_allow`.'
  );
}

function countOf(n: number): string {
  return `${n} failing`;
}

function list(names: readonly string[], max = 5): string {
  const shown = names.slice(0, max).map((n) => `\`${n.replace(/`/g, "'")}\``);
  return names.length > max
    ? `${shown.join(', ')} and ${names.length - max} more`
    : shown.join(', ');
}

/** Whether any recorded command of the baseline failed. */
export function baselineFailing(baseline: Baseline | null): BaselineCommand[] {
  return baseline?.commands.filter((c) => c.exit_code !== 0 || c.timed_out) ?? [];
}

/** Files whose change makes `setup` run again before validation (dependency manifests). */
const SETUP_INPUTS =
  /(^|\/)(package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|\.npmrc|\.yarnrc(\.yml)?|requirements[^/]*\.txt|pyproject\.toml|poetry\.lock|Pipfile(\.lock)?|setup\.py|setup\.cfg|go\.mod|go\.sum|Cargo\.toml|Cargo\.lock|Gemfile(\.lock)?)$/;

export function touchesSetupInputs(paths: Iterable<string>): boolean {
  for (const p of paths) if (SETUP_INPUTS.test(p)) return true;
  return false;
}

/**
 * Whether a failure's output names what the issue is about: an identifier or a path the issue
 * names, or a file the change touched (by its name without extension), as whole words.
 */
export function mentionsAnyOf(terms: Iterable<string>): (output: string) => boolean {
  const words = [...new Set(terms)].filter((t) => t.length >= 3).map(escapeRegExp);
  if (words.length === 0) return () => false;
  const pattern = new RegExp(`(?<![\\w$])(?:${words.join('|')})(?![\\w$])`);
  return (output) => pattern.test(output);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
