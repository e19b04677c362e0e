/**
 * The two ways a run ends. Success (or a deliberate stop): final status comment, 🚀, lock
 * released. Failure: the pipeline's hook (rollback) first, then the status comment, the failure
 * comment, the `automation-failed` label and 😕, then the lock. Each step is best effort so one
 * refused call never hides the others, and the issue is unlocked whatever happens.
 */
import type { ErrorShape } from '../errors.js';
import type { InstallationClient } from '../github/installation-auth.js';
import { addReaction } from '../github/reactions.js';
import { reportRunFailure } from '../github/report-failure.js';
import { createStatusComment, type StatusComment } from '../github/status-comment.js';
import type { Logger } from '../logger.js';
import {
  conversationOf,
  githubHostOf,
  reactionTargetOf,
  repoOf,
  stagesOf,
} from './run-addressing.js';
import { runKeyOf, type RunRegistry } from './run-registry.js';
import type { RunEnding } from './run-record.js';
import { ENDING_STAGE_INDEX, statusRevision, type StatusPublisher } from './status-publisher.js';
import type { RunFailedHook, RunJobData, StageName } from './types.js';
import type { RunStore } from './run-record.js';
import type { RunPageLinks } from './run-page-link.js';
import { ended } from './run-transitions.js';

/** What ending a run needs of the process (a stage job's runtime has all of it). */
export interface RunEndingDeps {
  registry: RunRegistry;
  /** The run's record: its ending is written there first. */
  runs: RunStore;
  status: StatusPublisher;
  /** Redacts secrets from everything posted to GitHub. */
  redact: (text: string) => string;
  onRunFailed?: RunFailedHook;
  /** The run page's signed links (PUBLIC_URL set): the status comment names the run's page. */
  runPage?: Pick<RunPageLinks, 'urlOf'>;
  /**
   * Drops the run's call journal once it has ended: the model's answers (which may hold what a
   * refused change tried to add) are kept only while the run can still resume or retry.
   */
  forgetCalls?: (runId: string) => Promise<void>;
}

export function statusCommentFor(
  data: RunJobData,
  client: InstallationClient,
  log: Logger,
  runPage?: string,
): StatusComment {
  return createStatusComment({
    octokit: client.octokit,
    repo: repoOf(data),
    issueNumber: conversationOf(data),
    ...(githubHostOf(data) ? { githubHost: githubHostOf(data)! } : {}),
    runId: data.runId,
    stageOrder: stagesOf(data),
    command: data.config.command,
    log,
    facts: data.status,
    ...(data.statusCommentId === undefined ? {} : { commentId: data.statusCommentId }),
    ...(runPage ? { runPage } : {}),
  });
}

/** The run's last version, written now (it outranks every stage's); waited for. */
async function publishFinal(
  rt: RunEndingDeps,
  data: RunJobData,
  status: StatusComment,
): Promise<void> {
  rt.status.submit({
    runId: data.runId,
    rev: statusRevision(ENDING_STAGE_INDEX, 0, 1),
    body: status.render(),
    startedAt: data.acceptedAt,
    target: status.target(),
    ...(data.statusCommentId === undefined ? {} : { commentId: data.statusCommentId }),
  });
  await rt.status.flush(data.runId);
}

/** Stages that never ran show as skipped once the run has ended. */
function skipRemaining(status: StatusComment, data: RunJobData): void {
  for (const stage of stagesOf(data)) {
    const state = status.facts().stages[stage]?.state ?? 'pending';
    if (state === 'pending' || state === 'queued' || state === 'waiting')
      status.setStage(stage, { state: 'skipped' });
  }
}

async function release(rt: RunEndingDeps, data: RunJobData, log: Logger): Promise<void> {
  try {
    await rt.registry.release(runKeyOf(data), data.runId);
  } catch (err) {
    log.error({ err }, 'could not release the issue lock; it expires on its own');
  }
}

/** Before the run's last word: a stage job that runs again later only repeats the report. */
async function recordEnding(
  rt: RunEndingDeps,
  data: RunJobData,
  how: RunEnding,
  log: Logger,
): Promise<void> {
  await rt.runs
    .update(data.runId, (run) => (run.ending ? undefined : ended(run, how, Date.now())))
    .catch((err: unknown) => log.warn({ err }, 'could not record how the run ended'));
  await rt
    .forgetCalls?.(data.runId)
    .catch((err: unknown) =>
      log.warn({ err }, "could not drop the run's call journal; it expires on its own"),
    );
}

export async function finishRun(
  rt: RunEndingDeps,
  data: RunJobData,
  client: InstallationClient,
  status: StatusComment,
  log: Logger,
  stop?: { reason: string },
): Promise<void> {
  skipRemaining(status, data);
  status.setOutcome(stop ? { kind: 'stopped', message: stop.reason } : { kind: 'success' });
  await recordEnding(
    rt,
    data,
    { outcome: 'finished', status: status.facts(), ...(stop ? { stop } : {}) },
    log,
  );
  await publishFinal(rt, data, status);
  if (!stop) {
    await addReaction(client.octokit, repoOf(data), reactionTargetOf(data), 'rocket').catch(
      (err: unknown) => log.warn({ err }, 'could not add the 🚀 reaction'),
    );
  }
  await release(rt, data, log);
  log.info({ outcome: stop ? 'stopped' : 'success' }, 'run finished');
}

export async function failRun(
  rt: RunEndingDeps,
  data: RunJobData,
  client: InstallationClient,
  failure: { stage: StageName; error: ErrorShape; attempts: number },
  log: Logger,
  status: StatusComment = statusCommentFor(data, client, log, rt.runPage?.urlOf(data)),
): Promise<void> {
  log.error({ code: failure.error.code, attempts: failure.attempts }, 'run failed');
  await recordEnding(rt, data, { outcome: 'failed', failure }, log);
  if (rt.onRunFailed) {
    try {
      await rt.onRunFailed(data, failure, {
        octokit: client.octokit,
        getInstallationToken: client.getInstallationToken,
        log,
      });
    } catch (err) {
      log.error({ err }, 'the run-failed hook threw');
    }
  }
  status.setStage(failure.stage, { ...status.facts().stages[failure.stage], state: 'failed' });
  skipRemaining(status, data);
  status.setOutcome({
    kind: 'failed',
    message: `\`${failure.error.code}\` during ${failure.stage}; see the comment below.`,
  });
  await publishFinal(rt, data, status);
  await reportRunFailure(
    client.octokit,
    {
      repo: repoOf(data),
      issueNumber: conversationOf(data),
      ...(githubHostOf(data) ? { githubHost: githubHostOf(data)! } : {}),
      trigger: reactionTargetOf(data),
      runId: data.runId,
      stage: failure.stage,
      error: failure.error,
      attempts: failure.attempts,
      command: data.config.command,
      redact: rt.redact,
    },
    log,
  );
  await release(rt, data, log);
}

/**
 * The third way: the app lost the run's installation or repository (intake/installation-gone.ts).
 * Nothing is posted (GitHub would refuse it); the ending is recorded and the issue released, so
 * a trigger after a reinstall starts afresh. The caller logs.
 */
export async function abandonRun(
  deps: { registry: Pick<RunRegistry, 'release'>; runs: RunStore },
  data: Pick<RunJobData, 'runId' | 'repository' | 'issue'>,
  reason: string,
): Promise<void> {
  await deps.runs.update(data.runId, (run) =>
    run.ending ? undefined : ended(run, { outcome: 'abandoned', reason }, Date.now()),
  );
  await deps.registry.release(runKeyOf(data), data.runId);
}
