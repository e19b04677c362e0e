/** `summary.json` of a local run: what it was given, how each stage went, what it cost. */
import type { RunLog } from '../../artifacts/run-log.js';
import type { RepoConfig } from '../../config/repo-config.js';
import type { UsageTotals } from '../../llm/usage-tracker.js';
import type { LocalRunReport } from './run-local.js';

/** One progress event as the summary keeps it. */
export interface StageRecord {
  stage: string;
  status: string;
  at_ms: number;
  message: string;
}

export interface SummaryFacts {
  run: {
    runId: string;
    repo: string;
    pre: { branch: string; head: string };
    issue: { number: number; title: string };
    config: Pick<RepoConfig, 'token_budget'>;
  };
  report: LocalRunReport;
  stages: StageRecord[];
  usage: UsageTotals;
  started: number;
}

export function writeSummary(runLog: RunLog, facts: SummaryFacts): void {
  const { run, report, usage } = facts;
  const commit = report.result?.commit;
  runLog.json('summary.json', {
    run_id: run.runId,
    repo: run.repo,
    base_branch: run.pre.branch,
    base_commit: run.pre.head,
    issue: { number: run.issue.number, title: run.issue.title },
    outcome: report.outcome,
    failure: report.failure ?? null,
    stages: facts.stages,
    triage: report.result?.triage ?? null,
    plan: report.result?.plan ?? null,
    reproduction: report.result?.reproduction ?? null,
    stopped: report.stopped ?? null,
    commit: commit ? { sha: commit.sha, branch: commit.branch, message: commit.message } : null,
    validation:
      report.result?.code?.validation.map(({ command, exit_code, duration_ms, timed_out }) => ({
        command,
        exit_code,
        duration_ms,
        timed_out,
      })) ?? [],
    tokens: {
      prompt: usage.promptTokens,
      completion: usage.completionTokens,
      total: usage.totalTokens,
      budget: run.config.token_budget,
    },
    cost_usd: usage.cost,
    unpriced_models: usage.unpricedModels,
    duration_ms: Date.now() - facts.started,
  });
}
