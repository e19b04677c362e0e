/**
 * One attempt of a work order, from the baseline:
 *
 *   SE  prompt (intent, allowed files + hashes, forbidden, context, last FailureBrief) → LLM
 *   TR  the edit engine in `json-writes`: strict WriteProposal, writes ⊆ allowed_files,
 *       base_sha256 against the disk, then all-or-nothing atomic writes
 *   PO  global verification, then the acceptance commands; any nonzero exit fails
 *
 * Writes `attempt_<N>/` (proposed_writes.json, write_result.json, verify_result.json,
 * acceptance_result.json, failure_brief.json on failure — `attempt-log.ts` — one stdout/stderr
 * file per command, and the SE prompt and answer). Two steps of the repair loop
 * (`pipeline/code/repair-loop.ts`): SE is `proposeAttempt` (its ask), TR (`write-proposal.ts`)
 * and PO are `checkProposal` (its check). Rolling back is the caller's job.
 */
import type { Redactor } from '../../../artifacts/redact.js';
import type { RunLog } from '../../../artifacts/run-log.js';
import type { PathPolicy } from '../../../edits/index.js';
import { formatCommand } from '../../../exec/index.js';
import type { LlmClient } from '../../../llm/create-llm-client.js';
import type { AgentDefinition } from '../../../llm/parse-agent.js';
import { renderAgent } from '../../../llm/render-agent.js';
import { cutOffMessage } from '../../../pipeline/code/cut-off-message.js';
import {
  failAttempt,
  failOnError,
  messageOf,
  startAttemptLog,
  writeAttemptLog,
  type AttemptLog,
} from './attempt-log.js';
import type { FailureBrief } from './failure-brief.js';
import { readAllowedFiles } from './read-allowed-files.js';
import type { LoadedWorkOrder } from './read-work-order.js';
import { runCommands, type CommandContext } from './run-commands.js';
import { sePromptData } from './se-prompt-data.js';
import type { AttemptRecord } from './types.js';
import { writeProposal } from './write-proposal.js';

export interface AttemptContext {
  repo: string;
  baselineCommit: string;
  work: LoadedWorkOrder;
  agent: AgentDefinition;
  editFormatInstructions: string;
  llm: LlmClient;
  model: string;
  temperature: number;
  maxAttempts: number;
  policy: PathPolicy;
  verify: readonly string[][];
  commands: CommandContext;
  runLog: RunLog;
  /** The run's secrets: a proposal that writes one (or any credential) is refused unwritten. */
  redact: Redactor;
}

/**
 * The SE node's answer, or why there is none (an attempt failure, never thrown): the LLM call
 * failed, or reading the files for the prompt did (`inErrors`: also listed in write_result.json).
 */
export type Proposal =
  | { attempt: number; text: string; truncated?: string }
  | { attempt: number; failed: { text: string; inErrors: boolean } };

/** SE: the prompt (with the previous attempt's FailureBrief) and the LLM's answer, both logged. */
export async function proposeAttempt(
  ctx: AttemptContext,
  attempt: number,
  previous: FailureBrief | null,
): Promise<Proposal> {
  const dir = `attempt_${attempt}`;
  try {
    const files = await readAllowedFiles(ctx.repo, ctx.work.order);
    const { messages } = renderAgent(
      ctx.agent,
      sePromptData({
        order: ctx.work.order,
        ...files,
        attempt,
        maxAttempts: ctx.maxAttempts,
        brief: previous,
        editFormatInstructions: ctx.editFormatInstructions,
      }),
    );
    ctx.runLog.text(
      `${dir}/se_prompt.txt`,
      messages.map((m) => `### ${m.role}\n\n${m.content}`).join('\n\n'),
    );
    let text: string;
    let truncated: string | null;
    try {
      ({ text, truncated } = await ctx.llm.chat({
        model: ctx.model,
        messages,
        temperature: ctx.temperature,
        stage: 'se',
      }));
    } catch (err) {
      return { attempt, failed: { text: `LLM call failed: ${messageOf(err)}`, inErrors: false } };
    }
    ctx.runLog.text(`${dir}/se_response.txt`, text);
    return { attempt, text, ...(truncated === null ? {} : { truncated }) };
  } catch (err) {
    return { attempt, failed: { text: messageOf(err), inErrors: true } };
  }
}

/** PO's phase: its commands in order; false (the attempt's brief set) at the first failure. */
async function runPhase(
  ctx: AttemptContext,
  log: AttemptLog,
  phase: 'verify' | 'acceptance',
  commands: readonly string[][],
): Promise<boolean> {
  const ran = await runCommands(`${log.dir}/${phase}`, commands, ctx.commands);
  Object.assign(log[phase], { ok: !ran.failed, skipped: false, results: ran.results });
  log.record[phase] = ran.results;
  if (!ran.failed) return true;
  const { result, output } = ran.failed;
  failAttempt(log, `${phase}_failed`, {
    text: output,
    command: formatCommand(result.command),
    exit_code: result.exit_code,
  });
  return false;
}

/** The answer to write, or undefined when the attempt already failed (no answer, or a cut one). */
function answerOf(log: AttemptLog, proposal: Proposal): string | undefined {
  if ('failed' in proposal) {
    if (proposal.failed.inErrors) log.errors.push(proposal.failed.text);
    failAttempt(log, 'exception', { text: proposal.failed.text });
    return undefined;
  }
  if (proposal.truncated !== undefined) {
    // Cut off at the output limit: never written, however much of it parses.
    const cut = cutOffMessage('json-writes', proposal.text, proposal.truncated);
    log.errors.push(cut);
    failAttempt(log, 'llm_output_invalid', { text: cut });
    return undefined;
  }
  return proposal.text;
}

/** TR and PO for one proposal; the attempt's record, its failure brief set when it failed. */
export async function checkProposal(
  ctx: AttemptContext,
  proposal: Proposal,
): Promise<AttemptRecord> {
  const log = startAttemptLog(proposal.attempt, ctx.baselineCommit, ctx.work.order);
  try {
    const text = answerOf(log, proposal);
    // TR, then PO: the global verification, then the acceptance commands.
    if (text !== undefined && (await writeProposal(ctx, log, text))) {
      if (await runPhase(ctx, log, 'verify', ctx.verify))
        await runPhase(ctx, log, 'acceptance', ctx.work.acceptance);
    }
    return log.record;
  } catch (err) {
    failOnError(log, err, 'exception');
    return log.record;
  } finally {
    writeAttemptLog(ctx.runLog, log);
  }
}
