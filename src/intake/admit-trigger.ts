/**
 * Admission: what a persisted trigger must pass before it becomes a run, asked of GitHub inside
 * the trigger's job (so a GitHub outage is retried with backoff instead of losing the trigger):
 * the label or command matches the repository config, the sender may write, the config is valid
 * (otherwise one comment names the bad keys), a PR comment is on a PR this app opened, and an
 * issue that already has an open Autofix PR is pointed at it unless the user asked to start over
 * (`/autofix fresh`). Then the issue lock is claimed and the run's first stage is queued.
 *
 * Errors that mean "try again later" (GitHub 5xx, rate limits, the network) are thrown; the
 * queue layer retries them. Everything else ends in a result and, where a person is waiting,
 * a reply posted once.
 */
import type { RepoConfig } from '../config/repo-config.js';
import { DEFAULT_BRANCH_PREFIX } from '../git/branch-name.js';
import type { GitHubClient, RepoCoords } from '../github/types.js';
import type { Logger } from '../logger.js';
import { sanitizeUntrustedText } from '../text/untrusted-text.js';
import type { RunTrigger } from '../runs/types.js';
import type { TriggerJobData } from './trigger-types.js';
import { admitCiFailure, type CiAdmissionResult } from './admit-ci-failure.js';
import { admitRerun } from './admit-rerun.js';
import { admitRunCommand, runCommandOf, type RunCommandResult } from './admit-run-command.js';
import { admitPullOutcome, type OutcomeAdmissionResult } from './admit-pull-outcome.js';
import { buildRunJob, type BuildRunJobInput } from './build-run-job.js';
import { findOpenIssuePull } from './find-open-issue-pull.js';
import { parseCommand } from './parse-command.js';
import { CONFIG_PATH, triggersOf, type LoadedConfig } from './repo-config-loader.js';
import { renderConfigErrorReply, renderOpenPullReply, replyMarker } from './render-replies.js';
import { resolveBotPullRequest } from './resolve-bot-pull-request.js';
import { startRun, type StartResult } from './start-run.js';
import type { AdmissionDeps } from './webhook-deps.js';
import { postOnce } from '../github/post-once.js';

export type AdmissionResult =
  | StartResult
  | CiAdmissionResult
  | RunCommandResult
  | OutcomeAdmissionResult
  | 'ignored'
  | 'unauthorized'
  | 'config-invalid'
  /** The issue has an open Autofix PR: the reply links it. */
  | 'has-pr';

export type Admission = (
  trigger: TriggerJobData,
  octokit: GitHubClient,
  log: Logger,
) => Promise<AdmissionResult>;

/** `fresh` as the first word of the instructions: start over, replacing the open PR's branch. */
export function parseFresh(instructions: string): { fresh: boolean; rest: string } {
  const match = /^fresh(?:\s+|$)/i.exec(instructions);
  return match
    ? { fresh: true, rest: instructions.slice(match[0].length) }
    : { fresh: false, rest: instructions };
}

export function createAdmission(deps: AdmissionDeps): Admission {
  return async (trigger, octokit, log) => {
    const result = await admit(deps, trigger, octokit, log);
    deps.metrics?.deliveries.inc({ event: trigger.event, result });
    return result;
  };
}

async function admit(
  deps: AdmissionDeps,
  t: TriggerJobData,
  octokit: GitHubClient,
  log: Logger,
): Promise<AdmissionResult> {
  const repo: RepoCoords = { owner: t.repository.owner.login, repo: t.repository.name };
  const loaded = await deps.configs.load(octokit, repo, t.repository.default_branch);
  if (t.closed) {
    // An outcome is recorded whatever the config's state: a typo must not lose a merge.
    const prefix = loaded.ok ? loaded.config.branch_prefix : DEFAULT_BRANCH_PREFIX;
    return admitPullOutcome(deps, { ...t, closed: t.closed }, octokit, log, prefix);
  }
  if (t.ci) {
    // Nobody is waiting on a CI completion: an invalid config ends it quietly (logged).
    if (!loaded.ok) {
      log.warn({ err: loaded.error }, `${CONFIG_PATH} is invalid: no CI follow-up`);
      return 'config-invalid';
    }
    return admitCiFailure(deps, { ...t, ci: t.ci }, octokit, log, loaded.config);
  }
  if (t.rerun) {
    if (!loaded.ok) {
      log.warn({ err: loaded.error }, `${CONFIG_PATH} is invalid: no re-run`);
      return 'config-invalid';
    }
    return admitRerun(deps, { ...t, rerun: t.rerun }, octokit, log, loaded.config);
  }
  return admitRequest({ deps, t, octokit, repo, log }, loaded);
}

/** One admission under way: what its steps ask GitHub with. */
interface Admitting {
  deps: AdmissionDeps;
  t: TriggerJobData;
  octokit: GitHubClient;
  repo: RepoCoords;
  log: Logger;
}

/** What the run will serve and what started it. */
interface RunTarget {
  issue: BuildRunJobInput['issue'];
  trigger: RunTrigger;
}

/**
 * A person's request (the trigger label, or the command in a comment): it must match the
 * config, come from someone who may write, and find the config valid; then it becomes the run's
 * trigger (on a PR or on an issue) and the run starts.
 */
async function admitRequest(a: Admitting, loaded: LoadedConfig): Promise<AdmissionResult> {
  const { deps, t, octokit, repo, log } = a;
  const { command, triggerLabel } = triggersOf(loaded);
  const instructions = requestedInstructions(t, command, triggerLabel);
  if (instructions === undefined) return 'ignored';
  if (!(await deps.permissions.allows(octokit, repo, t.sender, log))) {
    log.info({ sender: t.sender }, 'sender lacks write permission: no run');
    return 'unauthorized';
  }
  const defaultBranch = t.repository.default_branch;
  if (!loaded.ok) {
    log.warn({ err: loaded.error }, `${CONFIG_PATH} is invalid: no run`);
    await reply(
      a,
      'config',
      renderConfigErrorReply(loaded.error, CONFIG_PATH, defaultBranch, loaded.command),
    );
    return 'config-invalid';
  }
  const config = loaded.config;
  const runCommand = t.comment ? runCommandOf(instructions) : undefined;
  if (runCommand) {
    return admitRunCommand(deps, t, runCommand, octokit, log, (kind, body) => reply(a, kind, body));
  }
  const target = t.issue.isPullRequest
    ? await feedbackTarget(a, config, instructions)
    : await issueTarget(a, config, instructions, command);
  if (typeof target === 'string') return target;
  const job = buildRunJob({
    deliveryId: t.deliveryId,
    triggerKey: t.triggerKey,
    installationId: t.installationId,
    repository: t.repository,
    issue: target.issue,
    trigger: target.trigger,
    sender: t.sender,
    config,
    now: t.receivedAt,
  });
  return startRun(deps, octokit, log, job);
}

/** The instructions of a matching request ('' for the label); undefined when it does not match. */
function requestedInstructions(
  t: TriggerJobData,
  command: string,
  triggerLabel: string,
): string | undefined {
  if (t.label !== undefined) return t.label === triggerLabel ? '' : undefined;
  return parseCommand(t.comment?.body ?? '', command);
}

/** Posts the reply of that kind once per trigger; a failure is logged, never thrown. */
function reply(a: Admitting, kind: string, body: string): Promise<unknown> {
  const { t, log } = a;
  const marker = replyMarker(`${kind}:${t.triggerKey}`);
  return postOnce(
    a.octokit,
    { repo: a.repo, issueNumber: t.issue.number, marker, since: t.receivedAt - 60_000 },
    `${marker}\n${body}`,
    log,
  ).catch((err: unknown) => log.warn({ err }, `could not post the ${kind} reply`));
}

/** `/autofix <feedback>` on a PR: only on one this app opened; the run serves the PR's issue. */
async function feedbackTarget(
  a: Admitting,
  config: RepoConfig,
  instructions: string,
): Promise<RunTarget | 'ignored'> {
  const { deps, t, log } = a;
  if (t.comment === undefined) return 'ignored';
  const pull = await resolveBotPullRequest(
    a.octokit,
    a.repo,
    t.issue.number,
    config.branch_prefix,
    deps.identity,
  );
  if (!pull) {
    log.info({ pr: t.issue.number }, 'not a pull request this app opened: ignored');
    return 'ignored';
  }
  if (pull.untrustedSkipped > 0) {
    log.info(
      { pr: t.issue.number, skipped: pull.untrustedSkipped },
      'review comments by users the repository does not trust were left out',
    );
  }
  return {
    issue: pull.issue,
    trigger: {
      kind: 'pr-feedback',
      commentId: t.comment.id,
      prNumber: t.issue.number,
      branch: pull.branch,
      feedback: sanitizeUntrustedText(instructions),
      review: pull.review,
    },
  };
}

/**
 * The label or the command on an issue. An issue with an open Autofix PR gets a reply pointing at
 * it, unless the user asked to start over (`/autofix fresh`): that run replaces the PR's branch.
 */
async function issueTarget(
  a: Admitting,
  config: RepoConfig,
  instructions: string,
  command: string,
): Promise<RunTarget | 'has-pr'> {
  const { deps, t, log } = a;
  const { fresh, rest } = parseFresh(instructions);
  const open = await findOpenIssuePull(
    a.octokit,
    a.repo,
    config.branch_prefix,
    t.issue.number,
    deps.identity,
  );
  if (open && !fresh) {
    log.info({ pr: open.number }, 'the issue already has an open Autofix PR: no new run');
    await reply(a, 'open-pr', renderOpenPullReply(open, command, t.repository.default_branch));
    return 'has-pr';
  }
  return {
    issue: t.issue,
    trigger:
      t.comment === undefined
        ? { kind: 'label', label: t.label ?? config.trigger_label }
        : {
            kind: 'issue-comment',
            commentId: t.comment.id,
            instructions: sanitizeUntrustedText(rest),
            ...(fresh ? { fresh: true } : {}),
            ...(open ? { replaceBranch: open.branch } : {}),
          },
  };
}
