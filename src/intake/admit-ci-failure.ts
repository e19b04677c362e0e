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
  type CiFailure,
} from '../github/ci-checks.js';
import { readCiRounds, type CiRound } from '../github/ci-rounds.js';
import type { GitHubClient, RepoCoords } from '../github/types.js';
import type { RepoConfig } from '../config/repo-config.js';
import type { Logger } from '../logger.js';
import type { CiFailureNote, RunJobData } from '../runs/types.js';
import type { TriggerJobData } from './trigger-types.js';
import { failureSignature } from '../text/crop-ci-log.js';
import { sanitizeUntrustedText } from '../text/untrusted-text.js';
import { buildRunJob } from './build-run-job.js';
import { replyMarker } from './render-replies.js';
import { openBotPullRequest, type BotPullRequest } from './resolve-bot-pull-request.js';
import { startRun, type StartResult } from './start-run.js';
import type { AdmissionDeps } from './webhook-deps.js';
import { withNamedLock } from '../scheduler/with-named-lock.js';

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

/** One CI admission under way: what its steps ask GitHub with. */
interface CiAdmitting {
  deps: AdmissionDeps;
  t: CiTrigger;
  octokit: GitHubClient;
  repo: RepoCoords;
  log: Logger;
  config: RepoConfig;
}

async function admitLocked(
  deps: AdmissionDeps,
  t: CiTrigger,
  octokit: GitHubClient,
  log: Logger,
  config: RepoConfig,
): Promise<CiAdmissionResult> {
  const repo: RepoCoords = { owner: t.repository.owner.login, repo: t.repository.name };
  const a: CiAdmitting = { deps, t, octokit, repo, log, config };
  const pull = await currentPull(a);
  if (!pull) return 'ignored';
  const failed = await failedChecks(a, pull);
  if (failed === 'waiting') return 'waiting';
  if (failed.length === 0) return 'ignored';
  const ours = await failingOnlyHere(a, pull, failed);
  if (ours === 'not-ours') return ours;

  const rounds = await readCiRounds(octokit, repo, t.ci.prNumber);
  if (rounds.length >= config.ci_fix_attempts) {
    await reply(a, 'ci-limit', limitNote(ours, rounds.length));
    return 'limit';
  }
  const read = await Promise.all(
    ours.slice(0, MAX_FAILURES).map((c) => readCiFailure(octokit, repo, c)),
  );
  const signature = failureSignature(read);
  const last = rounds.at(-1);
  if (last && last.signature === signature) {
    await reply(a, `ci-repeat:${signature}`, repeatNote(ours, last));
    return 'repeated';
  }
  const job = roundJob(a, pull, { round: rounds.length + 1, signature, read });
  return startRun(deps, octokit, log, job);
}

/** The bot's open PR, when the checks ran on its current head. */
async function currentPull(a: CiAdmitting): Promise<BotPullRequest | undefined> {
  const { prNumber, headSha } = a.t.ci;
  const pull = await openBotPullRequest(
    a.octokit,
    a.repo,
    prNumber,
    a.config.branch_prefix,
    a.deps.identity,
  );
  if (!pull) return undefined;
  if (pull.head.sha !== headSha) {
    a.log.info(
      { pr: prNumber, headSha, current: pull.head.sha },
      'CI result for an older head: ignored',
    );
    return undefined;
  }
  return pull;
}

/** The counted checks on the head that failed; 'waiting' while any of them still runs. */
async function failedChecks(a: CiAdmitting, pull: BotPullRequest): Promise<CiCheck[] | 'waiting'> {
  const { octokit, repo, config } = a;
  const ownSlug = await a.deps.identity.slug();
  const [checks, required] = await Promise.all([
    listCiChecks(octokit, repo, a.t.ci.headSha),
    config.ci_checks === 'required'
      ? requiredCheckNames(octokit, repo, pull.base.ref)
      : Promise.resolve(undefined),
  ]);
  const counted = checks.filter(
    (c) => c.appSlug !== ownSlug && (required === undefined || required.has(c.name)),
  );
  if (counted.some((c) => c.status !== 'completed')) return 'waiting';
  return counted.filter((c) => FAILED_CONCLUSIONS.has(c.conclusion ?? ''));
}

/**
 * The failed checks that do not fail on the PR's base commit too, by name; when there are none,
 * the PR gets one note saying so.
 */
async function failingOnlyHere(
  a: CiAdmitting,
  pull: BotPullRequest,
  failed: readonly CiCheck[],
): Promise<CiCheck[] | 'not-ours'> {
  const onBase = new Set(
    (await listCiChecks(a.octokit, a.repo, pull.base.sha))
      .filter((c) => FAILED_CONCLUSIONS.has(c.conclusion ?? ''))
      .map((c) => c.name),
  );
  const ours = failed.filter((c) => !onBase.has(c.name)).sort(byName);
  if (ours.length > 0) return ours;
  const failedNames = failed.map((c) => c.name);
  a.log.info({ pr: a.t.ci.prNumber, checks: failedNames }, 'CI fails on the base too');
  await reply(a, `ci-base:${[...failedNames].sort().join(',')}`, baseNote(failed, pull.base));
  return 'not-ours';
}

/** Posts the note of that kind on the PR once. */
function reply(a: CiAdmitting, kind: string, body: string): Promise<unknown> {
  const { prNumber } = a.t.ci;
  const marker = replyMarker(`${kind}:${prNumber}`);
  return postOnce(
    a.octokit,
    { repo: a.repo, issueNumber: prNumber, marker },
    `${marker}\n${body}`,
    a.log,
  );
}

/** The repair round's run, keyed by the PR's head; it carries the failures read, sanitized. */
function roundJob(
  a: CiAdmitting,
  pull: BotPullRequest,
  { round, signature, read }: { round: number; signature: string; read: readonly CiFailure[] },
): RunJobData {
  const { t, config } = a;
  const { prNumber, headSha } = t.ci;
  const failures: CiFailureNote[] = read.map((f) => ({
    name: sanitizeUntrustedText(f.name),
    conclusion: f.conclusion,
    url: f.url,
    ...(f.step ? { step: sanitizeUntrustedText(f.step) } : {}),
    excerpt: sanitizeUntrustedText(f.excerpt),
    source: f.source,
  }));
  return buildRunJob({
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
      round,
      attempts: config.ci_fix_attempts,
      signature,
      failures,
    },
    sender: t.sender,
    config,
    now: t.receivedAt,
  });
}

const names = (list: readonly CiCheck[]): string => list.map((c) => `\`${c.name}\``).join(', ');
const fails = (list: readonly CiCheck[]): string => (list.length === 1 ? 'fails' : 'fail');

function baseNote(failed: readonly CiCheck[], base: BotPullRequest['base']): string {
  return (
    `CI follow-up: ${names(failed)} ${fails(failed)} on \`${base.ref}\` ` +
    `(${base.sha.slice(0, 7)}) too, so this PR did not cause it. Not repairing it here.`
  );
}

function limitNote(ours: readonly CiCheck[], rounds: number): string {
  return (
    `CI follow-up: ${names(ours)} still ${fails(ours)} after ` +
    `${rounds} repair round${rounds === 1 ? '' : 's'}, the most \`ci_fix_attempts\` allows. ` +
    'Stopping here: a maintainer needs to look.'
  );
}

function repeatNote(ours: readonly CiCheck[], last: CiRound): string {
  return (
    `CI follow-up: ${names(ours)} failed the same way after round ${last.round} ` +
    `(${last.sha.slice(0, 7)}), so another attempt would repeat it. Stopping here: a maintainer needs to look.`
  );
}

function byName(a: CiCheck, b: CiCheck): number {
  return a.name.localeCompare(b.name);
}
