/**
 * Trivial StageProcessors for testing the queue and intake mechanics (and the webhook benchmark)
 * apart from the real stages: no LLM, no git; the PR stage really opens the pull request
 * through the GitHub adapter, so tests see the whole chain end at GitHub.
 */
import { createOrUpdatePullRequest, shouldOpenAsDraft } from '../../src/github/pull-request.js';
import type {
  RunJobData,
  StageContext,
  StageName,
  StageOutcome,
  StageOutputMap,
  StageProcessors,
} from '../../src/runs/types.js';

export type StageFn<S extends StageName = StageName> = (
  job: RunJobData,
  ctx: StageContext,
) => Promise<StageOutcome<StageOutputMap[S]>>;

export type StageFns = { [S in StageName]: StageFn<S> };

export interface StageCall {
  stage: StageName;
  runId: string;
  attempt: number;
  job: RunJobData;
}

export interface TestStages {
  processors: StageProcessors;
  calls: StageCall[];
  /** The stages as they answer without overrides (an override may fall back to them). */
  defaults: StageFns;
}

export const testBranch = (job: RunJobData): string =>
  `${job.config.branch_prefix}fix/${job.issue.number}-test`;

const defaults: StageFns = {
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
      output: {
        branch_name: testBranch(job),
        commit_type: 'fix',
        scope: 'readme',
        plan_steps: [{ id: '1', description: 'Fix it' }],
        file_changes: [{ path: 'README.md', operation: 'MODIFY' }],
        validation_commands: [],
      },
      status: { planSteps: ['Fix the typo in README.md'] },
    }),
  reproduce: () =>
    Promise.resolve({
      kind: 'continue',
      output: { status: 'skipped', reason: 'reproduce: off', duration_ms: 0 },
    }),
  code: (job) =>
    Promise.resolve({
      kind: 'continue',
      output: {
        commit: {
          issue_number: job.issue.number,
          message: 'fix(readme): correct the typo',
          diff: '',
          files_changed: ['README.md'],
          validation_results: [],
          sha: '0'.repeat(40),
          branch: testBranch(job),
          timestamp: '2026-01-01T00:00:00Z',
        },
        code: {
          changes: [{ path: 'README.md', operation: 'modified' }],
          validation: [],
          warnings: [],
          notes: { user: [], debug: [] },
          amendments: [],
          repairs: 0,
          baseline: null,
          preexisting: [],
        },
        branch: {
          name: testBranch(job),
          remoteShaBefore: null,
          kept: { ref: `refs/autofix/runs/${job.runId}`, sha: '0'.repeat(40) },
        },
      },
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
      output: {
        title: `fix(readme): correct the typo reported in #${job.issue.number}`,
        body: `Fixes #${job.issue.number}`,
        branch: testBranch(job),
        pr: { number: pr.number, url: pr.url, draft: pr.draft },
      },
      status: { pr: { number: pr.number, url: pr.url, draft: pr.draft } },
    };
  },

  verify: (job) =>
    Promise.resolve({
      kind: 'continue',
      output: { headSha: job.facts.verify?.headSha ?? '', validation: [], conclusion: 'neutral' },
    }),
};

export function createTestStages(overrides: Partial<StageFns> = {}): TestStages {
  const calls: StageCall[] = [];
  const wrap =
    <S extends StageName>(stage: S): StageFn<S> =>
    (job, ctx) => {
      calls.push({ stage, runId: job.runId, attempt: ctx.attempt, job });
      const fn: StageFn<S> = overrides[stage] ?? defaults[stage];
      return fn(job, ctx);
    };
  return {
    processors: {
      triage: wrap('triage'),
      plan: wrap('plan'),
      reproduce: wrap('reproduce'),
      code: wrap('code'),
      pr: wrap('pr'),
      verify: wrap('verify'),
    },
    calls,
    defaults,
  };
}
