/**
 * Trivial StageProcessors for testing the queue and intake mechanics (and the webhook benchmark)
 * until the real pipeline is wired: no LLM, no git; the PR stage really opens the pull request
 * through the GitHub adapter, so tests see the whole chain end at GitHub.
 */
import { createOrUpdatePullRequest, shouldOpenAsDraft } from '../../src/github/pull-request.js';
import type {
  RunJobData,
  StageContext,
  StageName,
  StageOutcome,
  StageProcessors,
} from '../../src/queue/types.js';

export type StageFn = (job: RunJobData, ctx: StageContext) => Promise<StageOutcome>;

export interface StageCall {
  stage: StageName;
  runId: string;
  attempt: number;
  job: RunJobData;
}

export interface TestStages {
  processors: StageProcessors;
  calls: StageCall[];
}

export const testBranch = (job: RunJobData): string =>
  `${job.config.branch_prefix}fix/${job.issue.number}-test`;

const defaults: Record<StageName, StageFn> = {
  triage: () =>
    Promise.resolve({
      kind: 'continue',
      output: {
        risk: 'LOW',
        classification: 'fix',
        affected_files: ['README.md'],
        summary: 'typo',
      },
      status: { risk: 'LOW', summary: 'A typo in the README' },
    }),
  plan: (job) =>
    Promise.resolve({
      kind: 'continue',
      output: { branch_name: testBranch(job), plan_steps: [{ id: '1', description: 'Fix it' }] },
      status: { planSteps: ['Fix the typo in README.md'] },
    }),
  code: (job) =>
    Promise.resolve({
      kind: 'continue',
      output: { branch: testBranch(job), sha: '0'.repeat(40) },
      status: {
        files: [{ path: 'README.md', operation: 'modified' }],
        validation: [{ command: 'npm test', exitCode: 0, durationMs: 1200 }],
        usage: { totalTokens: 1234, costUsd: 0.0012 },
      },
    }),
  pr: async (job, ctx) => {
    const pr = await createOrUpdatePullRequest(
      ctx.octokit,
      { owner: job.repository.owner, repo: job.repository.name },
      {
        branch: testBranch(job),
        base: job.repository.defaultBranch,
        title: `fix(readme): correct the typo reported in #${job.issue.number}`,
        body: `Fixes #${job.issue.number}`,
        draft: shouldOpenAsDraft(job.config.draft_prs, 'LOW'),
        labels: job.config.labels,
        reviewer: job.sender,
      },
      ctx.log,
    );
    return {
      kind: 'continue',
      output: pr,
      status: { pr: { number: pr.number, url: pr.url, draft: pr.draft } },
    };
  },
};

export function createTestStages(overrides: Partial<Record<StageName, StageFn>> = {}): TestStages {
  const calls: StageCall[] = [];
  const wrap =
    (stage: StageName): StageFn =>
    (job, ctx) => {
      calls.push({ stage, runId: job.runId, attempt: ctx.attempt, job });
      return (overrides[stage] ?? defaults[stage])(job, ctx);
    };
  return {
    processors: { triage: wrap('triage'), plan: wrap('plan'), code: wrap('code'), pr: wrap('pr') },
    calls,
  };
}
