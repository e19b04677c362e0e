/**
 * The reproduce stage's work: ask the reproducer for one new test, check where it goes and how
 * it runs, run it on the base commit, and judge the result — on the shared repair loop, so a
 * rejected test is asked again once with the reason. The test file is removed afterwards: the
 * code stage writes it again, under the fix.
 */
import type { FixPlan, Reproduction, TriageResult } from '../../contracts.js';
import type { RepoConfig } from '../../config/repo-config.js';
import { isAutofixError } from '../../errors.js';
import type { CommandResult } from '../../contracts.js';
import { reproductionAnswerSchema, type ReproductionAnswer } from '../../llm/schemas.js';
import { askAgent } from '../ask-agent.js';
import { repairLoop, type RoundVerdict } from '../code/repair-loop.js';
import { issueData } from '../issue-data.js';
import type { IssueInput, PipelinePorts, RepoContext } from '../ports.js';
import { judgeReproduction } from './judge-reproduction.js';
import { matchRunner } from './test-runners.js';

export interface ReproduceInput {
  issue: IssueInput;
  triage: TriageResult;
  plan: FixPlan;
  config: Pick<RepoConfig, 'validate'>;
  model: string;
  context: RepoContext;
  /** Commands that may run one test file (`PATH` for its path). */
  runners: string[];
  /** Existing test files, abridged, for the repository's style. */
  examples: string;
}

export interface ReproducePorts extends PipelinePorts {
  /** Throws when the path may not be written (protected, ignored, outside the allowed paths). */
  checkPath(path: string): Promise<void>;
  exists(path: string): boolean;
  /** Writes the file, runs the command on the base commit, removes the file. */
  runTest(file: { path: string; content: string }, command: string): Promise<CommandResult>;
}

interface Rejection {
  message: string;
  excerpt?: string;
}

/** A test file's path: plain, inside the repository, named like a test. */
const PLAIN_PATH = /^(?!\/)(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9_@+][A-Za-z0-9._@+/-]*$/;
const TEST_LIKE =
  /(^|\/)(tests?|spec|__tests__)\/|[._-](test|spec)\.[A-Za-z0-9]+$|(^|\/)test_[^/]+\.py$/;

function whereRejected(
  answer: ReproductionAnswer,
  ports: ReproducePorts,
): Promise<string | undefined> {
  const { path } = answer;
  if (!PLAIN_PATH.test(path) || path.length > 200) {
    return Promise.resolve(
      `\`${path}\` is not a plain repository path (letters, digits, ._-/ only).`,
    );
  }
  if (!TEST_LIKE.test(path)) {
    return Promise.resolve(
      `\`${path}\` is not where tests live: name it like the repository's tests (a tests folder, or *.test.* / *.spec.*).`,
    );
  }
  if (ports.exists(path)) {
    return Promise.resolve(`\`${path}\` already exists: write a new file, never overwrite one.`);
  }
  return ports.checkPath(path).then(
    () => undefined,
    (err: unknown) => (err instanceof Error ? err.message : String(err)),
  );
}

export type ReproduceResult =
  | { ok: true; reproduction: Reproduction }
  /** `reason`: a sentence for people (PR, comments); `detail`: the validator's words, for logs. */
  | { ok: false; reason: string; detail?: string };

/** What a PR or comment says when the reproducer's answers could not be read at all. */
export const UNUSABLE_ANSWER =
  'No failing reproduction could be written: the model did not answer in the form asked for, even when asked again.';

function askReproducer(
  input: ReproduceInput,
  ports: ReproducePorts,
  previous: Rejection | undefined,
): Promise<ReproductionAnswer> {
  return askAgent(ports, {
    agent: 'reproducer',
    stage: 'reproduce',
    model: input.model,
    schema: reproductionAnswerSchema,
    schemaName: 'ReproductionAnswer',
    data: {
      ...issueData(input.issue),
      triage: input.triage,
      plan: {
        steps: input.plan.plan_steps.map((s) => s.description),
        files: input.plan.file_changes.map((c) => `${c.path} (${c.operation})`),
      },
      test_runners: input.runners.join('\n'),
      test_examples: input.examples || '(none found)',
      code_context: input.context.codeContext,
      previous_attempt: previous
        ? `${previous.message}${previous.excerpt ? `\nIts output:\n${previous.excerpt}` : ''}`
        : '(none)',
    },
  });
}

/** The answer's test where it may go, run with an allowed runner on the base commit, judged. */
async function checkReproduction(
  input: ReproduceInput,
  ports: ReproducePorts,
  answer: ReproductionAnswer,
): Promise<RoundVerdict<Reproduction, Rejection>> {
  const where = await whereRejected(answer, ports);
  if (where) return { passed: false, failure: { message: where } };
  const command = matchRunner(answer.command, answer.path, input.runners);
  if (!command) {
    return {
      passed: false,
      failure: {
        message: `\`${answer.command}\` is not one of the allowed test runners for \`${answer.path}\`.`,
      },
    };
  }
  const result = await ports.runTest({ path: answer.path, content: answer.content }, command);
  const verdict = judgeReproduction(result);
  if (verdict.kind === 'rejected') {
    return {
      passed: false,
      failure: { message: verdict.message, excerpt: verdict.excerpt },
    };
  }
  return {
    passed: true,
    value: {
      path: answer.path,
      content: answer.content,
      command,
      test_name: answer.test_name,
      base_failure: verdict.excerpt,
      base_exit_code: result.exit_code,
    },
  };
}

export async function writeReproduction(
  input: ReproduceInput,
  ports: ReproducePorts,
): Promise<ReproduceResult> {
  try {
    const outcome = await repairLoop<ReproductionAnswer, Reproduction, Rejection>(
      { maxRepairs: 1, ...(ports.signal ? { signal: ports.signal } : {}) },
      {
        ask: (turn) => askReproducer(input, ports, turn.previous),
        check: (answer) => checkReproduction(input, ports, answer),
      },
    );
    if (outcome.passed) return { ok: true, reproduction: outcome.value };
    return {
      ok: false,
      reason: `No failing reproduction could be written: ${outcome.failures.at(-1)?.message ?? 'unknown'}`,
    };
  } catch (err) {
    // The model could not give a usable answer at all: the run decides whether that stops it.
    // Its words (a schema's paths and codes) are for the log and the artifacts, not a PR.
    if (isAutofixError(err) && err.code === 'LLM_OUTPUT_INVALID') {
      ports.log.warn({ detail: err.message }, 'the reproducer gave no usable answer');
      return { ok: false, reason: UNUSABLE_ANSWER, detail: err.message };
    }
    throw err;
  }
}
