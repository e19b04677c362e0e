/**
 * The check of one code-commit round: the answer through the edit engine (`apply-answer.ts`), its
 * `&&&` notes shown and logged, then `./build.sh` — a refused answer counts as a failed build. A
 * failed round's record is what the repair prompts show.
 */
import type { Redactor } from '../../../artifacts/redact.js';
import type { RunLog } from '../../../artifacts/run-log.js';
import type { ChatResult } from '../../../llm/types.js';
import type { RoundVerdict } from '../../../pipeline/code/repair-loop.js';
import { applyAnswer, type AnswerOutcome } from './apply-answer.js';
import { refusalLog } from './refusal-log.js';
import { runBuild, type BuildContext } from './run-build.js';
import type { RoundRecord } from './types.js';

export interface CheckContext {
  projectDir: string;
  redact: Redactor;
  build: BuildContext;
  /** The run's log folder. */
  runLog: RunLog;
  /** The project's llm-user-output.txt, where every run's `&&&` notes accumulate. */
  userLog: RunLog;
  /** Prints a line for the user at once (stdout): the `&&&` notes. */
  say: (text: string) => void;
  progress: (text: string) => void;
}

/** The round's one line of progress: what was written, and the build's verdict. */
function roundSummary(applied: AnswerOutcome, passed: boolean): string {
  return applied.ok
    ? `${applied.changes.length} file(s) written${applied.noChange === undefined ? '' : ' (no change needed, says the LLM)'}; build ${passed ? 'passed' : 'failed'}`
    : 'answer refused, nothing written';
}

/** Passed with the query's number, or failed with the round's record. */
export async function checkAnswer(
  ctx: CheckContext,
  answer: ChatResult,
): Promise<RoundVerdict<number, RoundRecord>> {
  const { redact, runLog } = ctx;
  const applied = await applyAnswer(ctx.projectDir, answer.text, redact, answer.truncated);
  for (const note of applied.userNotes) {
    ctx.say(redact(note));
    ctx.userLog.userOutput(note);
    runLog.userOutput(note);
  }
  let buildOutput: string;
  let passed = false;
  if (applied.ok) {
    const built = await runBuild(ctx.projectDir, ctx.build);
    buildOutput = built.log;
    passed = built.passed;
  } else {
    buildOutput = refusalLog(applied.refusal);
  }
  runLog.build(answer.index, buildOutput);
  ctx.progress(`query ${answer.index}: ${roundSummary(applied, passed)}`);
  if (passed) return { passed: true, value: answer.index };
  const failure: RoundRecord = {
    debugNotes: applied.debugNotes,
    changes: applied.ok ? applied.changes : [],
    buildOutput: redact(buildOutput),
  };
  return { passed: false, failure };
}
