/**
 * The first job of a run, built from the webhook (pure). Text is sanitized here, before anything
 * is stored or can reach a prompt (docs/SECURITY.md, rule 3).
 */
import { runIdFor } from '../artifacts/run-id.js';
import { ciRoundTrailers } from '../github/ci-rounds.js';
import type { RepoConfig } from '../config/repo-config.js';
import { sanitizeUntrustedText } from '../text/untrusted-text.js';
import { ROUTES, type RunFactsData, type RunJobData, type RunTrigger } from '../runs/types.js';
import { routeOfFacts } from '../runs/run-addressing.js';

export interface PayloadRepository {
  name: string;
  full_name: string;
  clone_url: string;
  default_branch: string;
  owner: { login: string };
}

export interface BuildRunJobInput {
  deliveryId: string;
  /** The trigger's identity (see TriggerJobData.triggerKey); the delivery id when absent. */
  triggerKey?: string;
  installationId: number;
  repository: PayloadRepository;
  issue: { number: number; title: string; body?: string | null };
  trigger: RunTrigger;
  sender: string;
  config: RepoConfig;
  now?: number;
}

/** The run's facts, decided here once from the trigger. */
export function runFactsOf(issueNumber: number, trigger: RunTrigger): RunFactsData {
  if (trigger.kind === 'verify') {
    const { prNumber, branch, headSha } = trigger;
    return {
      conversation: prNumber,
      verify: { prNumber, branch, headSha },
      existingBranch: 'extend',
    };
  }
  if (trigger.kind === 'pr-feedback' || trigger.kind === 'ci-failure') {
    return {
      conversation: trigger.prNumber,
      feedback: { prNumber: trigger.prNumber, branch: trigger.branch },
      existingBranch: 'extend',
      ...(trigger.kind === 'ci-failure'
        ? { commitTrailers: ciRoundTrailers(trigger.round, trigger.signature) }
        : {}),
    };
  }
  const fresh = trigger.kind === 'issue-comment' && trigger.fresh === true;
  const replaceBranch = trigger.kind === 'issue-comment' ? trigger.replaceBranch : undefined;
  return {
    conversation: issueNumber,
    ...(replaceBranch ? { replaceBranch } : {}),
    // A maintainer's commits on an earlier run's branch are never thrown away without being asked.
    existingBranch: fresh ? 'replace' : 'replace-bot-only',
  };
}

export function buildRunJob(input: BuildRunJobInput): RunJobData {
  const { repository, issue } = input;
  const facts = runFactsOf(issue.number, input.trigger);
  return {
    runId: runIdFor({
      repo: repository.full_name,
      issue: issue.number,
      delivery: input.triggerKey ?? input.deliveryId,
    }),
    deliveryId: input.deliveryId,
    triggerKey: input.triggerKey ?? input.deliveryId,
    installationId: input.installationId,
    repository: {
      owner: repository.owner.login,
      name: repository.name,
      fullName: repository.full_name,
      cloneUrl: repository.clone_url,
      defaultBranch: repository.default_branch,
    },
    issue: {
      number: issue.number,
      title: sanitizeUntrustedText(issue.title),
      body: sanitizeUntrustedText(issue.body ?? ''),
    },
    trigger: input.trigger,
    facts,
    sender: input.sender,
    config: input.config,
    status: {
      stages: Object.fromEntries(
        ROUTES[routeOfFacts(facts)].map((s) => [s, { state: 'pending' as const }]),
      ),
      ...(input.trigger.kind === 'ci-failure' ? { trigger: ciRoundLine(input.trigger) } : {}),
      ...(input.trigger.kind === 'verify'
        ? {
            trigger: `Re-run of the "Autofix verification" check on ${input.trigger.headSha.slice(0, 7)}, asked by @${input.sender}: the repository's commands run on it again.`,
          }
        : {}),
    },
    outputs: {},
    acceptedAt: input.now ?? Date.now(),
  };
}

/** The status comment's word on a CI follow-up round: which round, which checks failed. */
function ciRoundLine(t: Extract<RunTrigger, { kind: 'ci-failure' }>): string {
  const names = t.failures.map((f) => f.name).join(', ');
  return `CI follow-up, round ${t.round} of ${t.attempts}: the repository's checks failed on ${t.headSha.slice(0, 7)} (${names}); the fixer read their ${t.failures.some((f) => f.source === 'log') ? 'logs' : 'output'}.`;
}
