/** What the status comment shows after each stage, from the stage's typed output. */
import type { StageName, StageOutputMap } from '../contracts.js';
import type { StatusPatch } from '../github/types.js';

const VERDICT_ICON = { success: '✅', failure: '❌', neutral: '⚪' } as const;

type Patchers = { [S in StageName]: (output: StageOutputMap[S]) => StatusPatch };

const PATCHERS: Patchers = {
  triage: (triage) => ({ risk: triage.risk, summary: triage.summary }),
  plan: (plan) => ({
    planSteps: plan.plan_steps.map((s) => s.description),
    files: plan.file_changes.map((c) => ({ path: c.path, operation: c.operation.toLowerCase() })),
  }),
  reproduce: (r) =>
    r.status === 'reproduced'
      ? { reproduction: `\`${r.test_name}\` fails on the base commit` }
      : { reproduction: r.reason },
  code: ({ code }) => ({
    files: code.changes.map((c) => ({ path: c.path, operation: c.operation })),
    validation: code.validation.map((v) => ({
      command: v.command,
      exitCode: v.exit_code,
      durationMs: v.duration_ms,
      timedOut: v.timed_out,
    })),
    ...(code.warnings.length > 0 ? { warnings: code.warnings } : {}),
    ...(code.repairs > 0 ? { repairs: code.repairs } : {}),
  }),
  pr: ({ pr }) => (pr ? { pr: { number: pr.number, url: pr.url, draft: pr.draft } } : {}),
  verify: ({ validation, conclusion, headSha }) => ({
    successHeadline: `${VERDICT_ICON[conclusion]} Autofix verified ${headSha.slice(0, 7)} again: ${conclusion}`,
    validation: validation.map((v) => ({
      command: v.command,
      exitCode: v.exit_code,
      durationMs: v.duration_ms,
      timedOut: v.timed_out,
    })),
  }),
};

export function statusOfStage<S extends StageName>(
  stage: S,
  output: StageOutputMap[S],
): StatusPatch {
  const patch: Patchers[S] = PATCHERS[stage];
  return patch(output);
}
