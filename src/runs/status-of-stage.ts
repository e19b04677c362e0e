/** What the status comment shows after each stage, from the stage's typed output. */
import type { Exploration, StageName, StageOutputMap } from '../contracts.js';
import type { StatusPatch } from '../github/types.js';

const VERDICT_ICON = { success: '✅', failure: '❌', neutral: '⚪' } as const;

type Patchers = { [S in StageName]: (output: StageOutputMap[S]) => StatusPatch };

/** `read 4 files, 3 searches, 2 test runs, 1 edit`: the tool loop in one line. */
function exploredLine(e: Exploration): string {
  const count = (tools: string[]) => e.steps.filter((s) => tools.includes(s.tool)).length;
  const parts = [
    [count(['read_file']), 'file read', 'files read'],
    [count(['search', 'find_definition', 'find_references', 'list_files']), 'search', 'searches'],
    [count(['run_tests']), 'test run', 'test runs'],
    [count(['propose_edit']), 'edit', 'edits'],
  ] as const;
  return parts
    .filter(([n]) => n > 0)
    .map(([n, one, many]) => `${n} ${n === 1 ? one : many}`)
    .join(', ');
}

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
    ...(code.exploration ? { explored: exploredLine(code.exploration) } : {}),
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
