/**
 * Reproduce (issue #17): for a bug, a new test that fails on the base commit for the reason the
 * issue gives; the code stage commits it with the fix and must make it pass. `reproduce` in the
 * repository config: `auto` (bugs, in repositories with `validate` commands; without a test the
 * run says so and goes on), `required` (the run stops without one), `off`.
 */
import type { ReproductionOutput, TriageResult } from '../../contracts.js';
import type { ReproduceResult } from '../reproduce/write-reproduction.js';
import { reproduceInWorkspace } from './reproduce-in-workspace.js';
import { earlier, issueOf, type RunFacts, type StageEnv } from './stage-env.js';
import type { StageResult } from './stage-fn.js';

type Unreproduced = Omit<
  Extract<ReproductionOutput, { status: 'skipped' | 'not-reproduced' }>,
  'duration_ms'
>;

/** The run goes on without a test: skipped, or not reproduced. */
function goOnWithout(started: number, output: Unreproduced): StageResult<ReproductionOutput> {
  return { kind: 'continue', output: { ...output, duration_ms: Date.now() - started } };
}

/** Why this run asks for no reproduction, or undefined when it asks for one. */
function skipReason(facts: RunFacts, triage: TriageResult): string | undefined {
  const { config } = facts;
  if (config.reproduce === 'off') return 'reproduce: off';
  if (facts.feedback) return 'a commit on an open pull request';
  if (config.reproduce === 'auto' && triage.classification !== 'fix') {
    return `triaged as ${triage.classification}, not a bug`;
  }
  if (config.reproduce === 'auto' && config.validate.length === 0) {
    return 'no `validate` commands to run tests with';
  }
  return undefined;
}

/** The reproducer's result as the stage's: without a test, `required` stops the run. */
function stageResultOf(
  facts: RunFacts,
  result: ReproduceResult,
  started: number,
): StageResult<ReproductionOutput> {
  if (!result.ok) {
    if (facts.config.reproduce === 'required') {
      return {
        kind: 'stop',
        reason: `${result.reason} The repository requires one (\`reproduce: required\`), so no fix was attempted.`,
      };
    }
    return goOnWithout(started, {
      status: 'not-reproduced',
      reason: result.reason,
      ...(result.detail ? { detail: result.detail } : {}),
    });
  }
  return {
    kind: 'continue',
    output: { status: 'reproduced', ...result.reproduction, duration_ms: Date.now() - started },
  };
}

export async function reproduceStage(env: StageEnv): Promise<StageResult<ReproductionOutput>> {
  const started = Date.now();
  const { facts } = env;
  const triage = earlier(env, 'triage');
  const plan = earlier(env, 'plan');
  const skipped = skipReason(facts, triage);
  if (skipped !== undefined) return goOnWithout(started, { status: 'skipped', reason: skipped });
  const issue = issueOf(env);
  const result = await env.workspace((ws, io) =>
    reproduceInWorkspace(env, ws, io, { issue, triage, plan }),
  );
  return stageResultOf(facts, result, started);
}
