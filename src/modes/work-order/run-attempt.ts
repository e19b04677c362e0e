/**
 * One attempt of a work order, from the baseline:
 *
 *   SE  prompt (intent, allowed files + hashes, forbidden, context, last FailureBrief) → LLM
 *   TR  the edit engine in `json-writes`: strict WriteProposal, writes ⊆ allowed_files,
 *       base_sha256 against the disk, then all-or-nothing atomic writes
 *   PO  global verification, then the acceptance commands; any nonzero exit fails
 *
 * Writes `attempt_<N>/` (proposed_writes.json, write_result.json, verify_result.json,
 * acceptance_result.json, failure_brief.json on failure, one stdout/stderr file per command, and
 * the SE prompt and answer). Two steps of the repair loop (`pipeline/code/repair-loop.ts`): SE is
 * `proposeAttempt` (its ask), TR and PO are `checkProposal` (its check). Rolling back is the
 * caller's job.
 */
import type { Redactor } from '../../artifacts/redact.js';
import type { RunLog } from '../../artifacts/run-log.js';
import { applyEdits, parseEdits, type PathPolicy } from '../../edits/index.js';
import { formatCommand } from '../../exec/index.js';
import { checkIgnore } from '../../git/check-ignore.js';
import type { LlmClient } from '../../llm/create-llm-client.js';
import type { AgentDefinition } from '../../llm/parse-agent.js';
import { renderAgent } from '../../llm/render-agent.js';
import { cutOffMessage } from '../../pipeline/code/cut-off-message.js';
import { readProposedChange } from '../../secrets/read-proposed-change.js';
import { refuseCredentials } from '../../secrets/refuse-credentials.js';
import { failureBrief, type FailureBrief, type FailureStage } from './failure-brief.js';
import { readAllowedFiles } from './read-allowed-files.js';
import type { LoadedWorkOrder } from './read-work-order.js';
import { runCommands, type CommandContext } from './run-commands.js';
import { sePromptData } from './se-prompt-data.js';
import { stageOfError } from './stage-of-error.js';
import type { AttemptRecord, CmdResult } from './types.js';

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

interface PhaseResult {
  ok: boolean;
  skipped: boolean;
  results: CmdResult[];
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

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
      return { attempt, failed: { text: `LLM call failed: ${message(err)}`, inErrors: false } };
    }
    ctx.runLog.text(`${dir}/se_response.txt`, text);
    return { attempt, text, ...(truncated === null ? {} : { truncated }) };
  } catch (err) {
    return { attempt, failed: { text: message(err), inErrors: true } };
  }
}

/** TR and PO for one proposal; the attempt's record, its failure brief set when it failed. */
export async function checkProposal(
  ctx: AttemptContext,
  proposal: Proposal,
): Promise<AttemptRecord> {
  const { attempt } = proposal;
  const dir = `attempt_${attempt}`;
  const { order } = ctx.work;
  const record: AttemptRecord = {
    attempt_index: attempt,
    baseline_commit: ctx.baselineCommit,
    proposal_path: null,
    touched_files: [],
    write_ok: false,
    verify: [],
    acceptance: [],
    failure_brief: null,
    rolled_back: false,
  };
  const errors: string[] = [];
  let written: string[] = [];
  const verify: PhaseResult = { ok: false, skipped: true, results: [] };
  const acceptance: PhaseResult = { ok: false, skipped: true, results: [] };
  const fail = (stage: FailureStage, what: Parameters<typeof failureBrief>[1]): void => {
    record.failure_brief = failureBrief(stage, what, order);
  };

  try {
    if ('failed' in proposal) {
      if (proposal.failed.inErrors) errors.push(proposal.failed.text);
      fail('exception', { text: proposal.failed.text });
      return record;
    }
    const { text } = proposal;
    if (proposal.truncated !== undefined) {
      // Cut off at the output limit: never written, however much of it parses.
      const cut = cutOffMessage('json-writes', text, proposal.truncated);
      errors.push(cut);
      fail('llm_output_invalid', { text: cut });
      return record;
    }

    // TR: the strict WriteProposal first, so it is on record even if the writes are refused.
    let parsed;
    try {
      parsed = await parseEdits('json-writes', text, () => Promise.resolve(undefined));
    } catch (err) {
      errors.push(message(err));
      fail(stageOfError(err), { text: message(err) });
      return record;
    }
    const writes = parsed.changeSet.files;
    ctx.runLog.json(`${dir}/proposed_writes.json`, {
      summary: parsed.changeSet.notes.user.join('\n'),
      writes: writes.map((w) => ({ path: w.path, base_sha256: w.baseSha256, content: w.content })),
    });
    record.proposal_path = `${dir}/proposed_writes.json`;
    record.touched_files = [...new Set(writes.map((w) => w.path))].sort();
    try {
      await refuseCredentials(await readProposedChange(ctx.repo, writes), ctx.redact);
      const applied = await applyEdits({
        repoDir: ctx.repo,
        format: 'json-writes',
        text,
        policy: ctx.policy,
        isIgnored: (paths) => checkIgnore(ctx.repo, paths),
        scope: order.allowed_files,
        scopeName: "the work order's allowed_files",
      });
      written = applied.changeSet.files.map((f) => f.path).sort();
      record.write_ok = true;
    } catch (err) {
      errors.push(message(err));
      fail(stageOfError(err), { text: message(err) });
      return record;
    }

    // PO
    const verified = await runCommands(`${dir}/verify`, ctx.verify, ctx.commands);
    Object.assign(verify, { ok: !verified.failed, skipped: false, results: verified.results });
    record.verify = verified.results;
    if (verified.failed) {
      const { result, output } = verified.failed;
      fail('verify_failed', {
        text: output,
        command: formatCommand(result.command),
        exit_code: result.exit_code,
      });
      return record;
    }
    const accepted = await runCommands(`${dir}/acceptance`, ctx.work.acceptance, ctx.commands);
    Object.assign(acceptance, { ok: !accepted.failed, skipped: false, results: accepted.results });
    record.acceptance = accepted.results;
    if (accepted.failed) {
      const { result, output } = accepted.failed;
      fail('acceptance_failed', {
        text: output,
        command: formatCommand(result.command),
        exit_code: result.exit_code,
      });
    }
    return record;
  } catch (err) {
    errors.push(message(err));
    fail('exception', { text: message(err) });
    return record;
  } finally {
    ctx.runLog.json(`${dir}/write_result.json`, {
      write_ok: record.write_ok,
      touched_files: record.touched_files,
      written_files: written,
      errors,
    });
    ctx.runLog.json(`${dir}/verify_result.json`, verify);
    ctx.runLog.json(`${dir}/acceptance_result.json`, acceptance);
    if (record.failure_brief) ctx.runLog.json(`${dir}/failure_brief.json`, record.failure_brief);
  }
}
