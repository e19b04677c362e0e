/**
 * Admission of a CI completion on a PR (issue #17): a repair round starts only when
 * - the PR is one this app opened, still open, and the checks ran on its current head;
 * - every counted check on that head has finished (the base branch's required checks, or all with
 *   `ci_checks: all`; never this app's own), and at least one failed;
 * - some failing check does not fail on the PR's base commit too (a check already red there is
 *   not ours to fix: the PR gets one note saying so);
 * - the PR has had fewer than `ci_fix_attempts` rounds, and the last round did not answer the same
 *   failure (a repeat stops the follow-up, with one note).
 * The failing jobs' logs are read and cropped here, so the run carries what the fixer needs. The
 * run is keyed by the PR's head: the many events one CI run sends start one round.
 */
import { postOnce } from '../github/post-once.js';
import {
  FAILED_CONCLUSIONS,
  listCiChecks,
  readCiFailure,
  requiredCheckNames,
  type CiCheck,
} from '../github/ci-checks.js';
import { readCiRounds } from '../github/ci-rounds.js';
import type { GitHubClient, RepoCoords } from '../github/types.js';
import type { RepoConfig } from '../config/repo-config.js';
import type { Logger } from '../logger.js';
import type { CiFailureNote } from '../queue/types.js';
import type { TriggerJobData } from '../queue/trigger-types.js';
import { failureSignature } from '../text/crop-ci-log.js';
import { sanitizeUntrustedText } from '../text/untrusted-text.js';
import { buildRunJob } from './build-run-job.js';
import { replyMarker } from './render-replies.js';
import { openBotPullRequest } from './resolve-bot-pull-request.js';
import { startRun, type StartResult } from './start-run.js';
import type { AdmissionDeps } from './webhook-deps.js';
import { withNamedLock } from '../queue/with-named-lock.js';

export type CiAdmissionResult =
  | StartResult
  | 'ignored'
  /** Counted checks are still running: a later completion decides. */
  | 'waiting'
  /** Every failing check fails on the base too. */
  | 'not-ours'
  | 'limit'
  | 'repeated';

/** Logs of at most this many failing checks go to the fixer (the first, by name). */
const MAX_FAILURES = 3;

/** One PR's CI admissions run one at a time: its notes are posted once, its round started once. */
const LOCK_TTL_MS = 120_000;
const LOCK_WAIT_MS = 60_000;

type CiTrigger = TriggerJobData & { ci: NonNullable<TriggerJobData['ci']> };

export async function admitCiFailure(
  deps: AdmissionDeps,
  t: CiTrigger,
  octokit: GitHubClient,
  log: Logger,
  config: RepoConfig,
): Promise<CiAdmissionResult> {
  if (config.ci_fix_attempts === 0) return 'ignored';
  return withNamedLock(
    deps.locks,
    `ci:${t.repository.full_name}#${t.ci.prNumber}`,
    { ttlMs: LOCK_TTL_MS, waitMs: LOCK_WAIT_MS, log },
    () => admitLocked(deps, t, octokit, log, config),
  );
}

async function admitLocked(
  deps: AdmissionDeps,
  t: CiTrigger,
  octokit: GitHubClient,
  log: Logger,
  config: RepoConfig,
): Promise<CiAdmissionResult> {
  const repo: RepoCoords = { owner: t.repository.owner.login, repo: t.repository.name };
  const { prNumber, headSha } = t.ci;
  const pull = await openBotPullRequest(
    octokit,
    repo,
    prNumber,
    config.branch_prefix,
    deps.identity,
  );
  if (!pull) return 'ignored';
  if (pull.head.sha !== headSha) {
    log.info(
      { pr: prNumber, headSha, current: pull.head.sha },
      'CI result for an older head: ignored',
    );
    return 'ignored';
  }
  const ownSlug = await deps.identity.slug();
  const [checks, required] = await Promise.all([
    listCiChecks(octokit, repo, headSha),
    config.ci_checks === 'required'
      ? requiredCheckNames(octokit, repo, pull.base.ref)
      : Promise.resolve(undefined),
  ]);
  const counted = checks.filter(
    (c) => c.appSlug !== ownSlug && (required === undefined || required.has(c.name)),
  );
  if (counted.some((c) => c.status !== 'completed')) return 'waiting';
  const failed = counted.filter((c) => FAILED_CONCLUSIONS.has(c.conclusion ?? ''));
  if (failed.length === 0) return 'ignored';

  const reply = (kind: string, body: string): Promise<unknown> => {
    const marker = replyMarker(`${kind}:${prNumber}`);
    return postOnce(octokit, { repo, issueNumber: prNumber, marker }, `${marker}\n${body}`, log);
  };
  const onBase = new Set(
    (await listCiChecks(octokit, repo, pull.base.sha))
      .filter((c) => FAILED_CONCLUSIONS.has(c.conclusion ?? ''))
      .map((c) => c.name),
  );
  const ours = failed.filter((c) => !onBase.has(c.name)).sort(byName);
  const names = (list: readonly CiCheck[]): string => list.map((c) => `\`${c.name}\``).join(', ');
  if (ours.length === 0) {
    log.info({ pr: prNumber, checks: failed.map((c) => c.name) }, 'CI fails on the base too');
    await reply(
      `ci-base:${failed
        .map((c) => c.name)
        .sort()
        .join(',')}`,
      `CI follow-up: ${names(failed)} ${failed.length === 1 ? 'fails' : 'fail'} on \`${pull.base.ref}\` ` +
        `(${pull.base.sha.slice(0, 7)}) too, so this PR did not cause it. Not repairing it here.`,
    );
    return 'not-ours';
  }

  const rounds = await readCiRounds(octokit, repo, prNumber);
  const attempts = config.ci_fix_attempts;
  if (rounds.length >= attempts) {
    await reply(
      'ci-limit',
      `CI follow-up: ${names(ours)} still ${ours.length === 1 ? 'fails' : 'fail'} after ` +
        `${rounds.length} repair round${rounds.length === 1 ? '' : 's'}, the most \`ci_fix_attempts\` allows. ` +
        'Stopping here: a maintainer needs to look.',
    );
    return 'limit';
  }
  const read = await Promise.all(
    ours.slice(0, MAX_FAILURES).map((c) => readCiFailure(octokit, repo, c)),
  );
  const signature = failureSignature(read);
  const last = rounds.at(-1);
  if (last && last.signature === signature) {
    await reply(
      `ci-repeat:${signature}`,
      `CI follow-up: ${names(ours)} failed the same way after round ${last.round} ` +
        `(${last.sha.slice(0, 7)}), so another attempt would repeat it. Stopping here: a maintainer needs to look.`,
    );
    return 'repeated';
  }
  const failures: CiFailureNote[] = read.map((f) => ({
    name: sanitizeUntrustedText(f.name),
    conclusion: f.conclusion,
    url: f.url,
    ...(f.step ? { step: sanitizeUntrustedText(f.step) } : {}),
    excerpt: sanitizeUntrustedText(f.excerpt),
    source: f.source,
  }));
  const job = buildRunJob({
    deliveryId: t.deliveryId,
    triggerKey: `ci:${t.repository.full_name}#${prNumber}@${headSha}`,
    installationId: t.installationId,
    repository: t.repository,
    issue: pull.issue,
    trigger: {
      kind: 'ci-failure',
      prNumber,
      branch: pull.branch,
      headSha,
      round: rounds.length + 1,
      attempts,
      signature,
      failures,
    },
    sender: t.sender,
    config,
    now: t.receivedAt,
  });
  return startRun(deps, octokit, log, job);
}

function byName(a: CiCheck, b: CiCheck): number {
  return a.name.localeCompare(b.name);
}
