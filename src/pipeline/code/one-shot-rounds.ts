/**
 * The one-shot strategy: round 0 asks for one answer per planned file (while setup and the
 * baseline run), a repair asks the fixer once with the brief; each round's answers are applied
 * together or not at all, then validated. What a model without tool calling gets.
 */
import type { ValidationRun } from '../../exec/index.js';
import type { RepairSteps } from './repair-loop.js';
import { codeAgentData, codeFixerData, parsePlanAmendments } from './code-prompts.js';
import type { CodeSession } from './code-session.js';
import { continued, type RoundAnswer } from './continue-cut-answer.js';
import type { FailureBrief } from './failure-brief.js';
import { mapLimit } from './map-limit.js';
import { whilePreparing } from './while-preparing.js';

export function oneShotRounds(
  session: CodeSession,
): RepairSteps<RoundAnswer[], ValidationRun, FailureBrief> {
  return {
    ask: ({ round, previous }) =>
      previous === undefined ? firstAnswers(session) : repairAnswer(session, round, previous),
    check: async (answers, round) => {
      const applied = await session.apply(answers, round);
      return Array.isArray(applied) ? session.validate(applied, round) : applied;
    },
  };
}

/** Round 0: one answer per planned file, while setup and the baseline run. */
function firstAnswers(session: CodeSession): Promise<RoundAnswer[]> {
  const { input, ports, base } = session;
  return whilePreparing(session, (signal) =>
    mapLimit(input.plan.file_changes, input.concurrency ?? 3, async (change) => {
      const content = await ports.workspace.readFile(change.path);
      session.originals.set(change.path, content);
      return session.ask('code-agent', codeAgentData(base, change, content), signal);
    }),
  );
}

/**
 * Round n ≥ 1: the fixer's one answer to the brief of round n - 1; after a cut-off answer, the
 * rest of it, applied with what was kept (`continue-cut-answer.ts`).
 */
async function repairAnswer(
  session: CodeSession,
  round: number,
  brief: FailureBrief,
): Promise<RoundAnswer[]> {
  const { input, ports } = session;
  ports.progress?.({
    stage: 'code',
    status: 'info',
    message: `repair ${round}/${input.config.max_repair_attempts} after ${brief.code}${brief.command ? ` in \`${brief.command}\`` : ''}`,
  });
  const { text, truncated } = await session.ask(
    'code-fixer',
    codeFixerData(session.base, {
      attempt: round,
      maxAttempts: input.config.max_repair_attempts,
      brief,
      changed: session.changed,
      originals: session.originals,
      debugNotes: session.notes.debug,
      allowAmendments: input.config.allow_plan_amendments,
    }),
  );
  if (input.config.allow_plan_amendments) {
    for (const amendment of parsePlanAmendments(text)) {
      if (!session.scope.has(amendment.path)) {
        session.scope.add(amendment.path);
        session.amendments.push(amendment);
      }
    }
  }
  if (!brief.continuation) return [{ text, truncated }];
  const texts = continued(brief.continuation, text);
  return texts.map((t, i) => ({ text: t, truncated: i === texts.length - 1 ? truncated : null }));
}
