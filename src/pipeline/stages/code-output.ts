import type {
  CodeOutput,
  CodeSummary,
  CommandResult,
  Commit,
  Exploration,
} from '../../contracts.js';

/** Bounds of what the code stage hands on through Redis (JSON, no tokens). */
const MAX_DIFF = 200_000;
const MAX_OUTPUT = 4_000;

const tail = (text: string, max: number): string =>
  text.length <= max ? text : `…${text.slice(-max)}`;

/** A command's result with its output cut to its tail, for the job payload. */
export function bounded(result: CommandResult): CommandResult {
  return {
    ...result,
    stdout: tail(result.stdout, MAX_OUTPUT),
    stderr: tail(result.stderr, MAX_OUTPUT),
  };
}

/** Calls kept in the job payload; the PR lists at most 40 anyway. */
const MAX_STEPS = 200;

function boundedExploration(e: Exploration): Exploration {
  return {
    steps: e.steps.slice(0, MAX_STEPS).map((s) => ({ ...s, summary: s.summary.slice(0, 300) })),
    ends: e.ends,
  };
}

export function toCodeOutput(
  commit: Commit,
  code: CodeSummary,
  branch: CodeOutput['branch'],
): CodeOutput {
  return {
    commit: {
      ...commit,
      diff:
        commit.diff.length > MAX_DIFF
          ? `${commit.diff.slice(0, MAX_DIFF)}\n… (diff cut at ${MAX_DIFF} characters)\n`
          : commit.diff,
      validation_results: commit.validation_results.map(bounded),
    },
    code: {
      changes: code.changes,
      validation: code.validation.map(bounded),
      warnings: code.warnings,
      notes: code.notes,
      amendments: code.amendments,
      repairs: code.repairs,
      baseline: code.baseline,
      preexisting: code.preexisting,
      // The account only (one line a call): the transcript stays in the run's artifacts.
      ...(code.exploration ? { exploration: boundedExploration(code.exploration) } : {}),
    },
    branch,
  };
}
