/**
 * The commands that answer a parked run rather than start one: `/autofix continue` goes on from
 * where a run paused (a budget, an LLM that stayed down); `/autofix approve` goes on from a plan
 * waiting for approval, and `/autofix plan <changes>` plans again with the maintainer's words.
 * Only from a user who may write (the caller checked); on an issue with nothing parked for that
 * command, one reply says so and nothing starts.
 */
import { addReaction } from '../github/reactions.js';
import type { GitHubClient, RepoCoords } from '../github/types.js';
import type { Logger } from '../logger.js';
import type { ParkReason } from '../runs/run-record.js';
import type { ResumeRequest } from '../runs/run-transitions.js';
import { sanitizeUntrustedText } from '../text/untrusted-text.js';
import type { TriggerJobData } from './trigger-types.js';
import type { AdmissionDeps } from './webhook-deps.js';

/** The first word of the instructions when it is a run command. */
export type RunCommand = 'continue' | 'approve' | 'plan';

export function runCommandOf(instructions: string): { word: RunCommand; rest: string } | undefined {
  const match = /^(continue|approve|plan)(?:\s+|$)/i.exec(instructions);
  if (!match) return undefined;
  return { word: match[1]!.toLowerCase() as RunCommand, rest: instructions.slice(match[0].length) };
}

export type RunCommandResult = 'resumed' | 'nothing-parked';

/** What each command asks of the parked run, and what it answers when none waits for it. */
function requestOf(
  command: { word: RunCommand; rest: string },
  t: TriggerJobData,
): { request: ResumeRequest; nothing: string } {
  const asked = { by: t.sender, key: t.triggerKey };
  if (command.word === 'continue') {
    return {
      request: { ...asked, reasons: ['budget', 'llm-unavailable'], grantAnotherCap: true },
      nothing: 'There is no paused Autofix run here to continue.',
    };
  }
  const nothing = 'There is no Autofix plan waiting for approval here.';
  if (command.word === 'approve')
    return { request: { ...asked, reasons: ['plan-approval'] }, nothing };
  const note = sanitizeUntrustedText(command.rest).trim();
  return {
    request: {
      ...asked,
      reasons: ['plan-approval'],
      resumeAt: 'plan',
      ...(note ? { planNote: note } : {}),
    },
    nothing,
  };
}

/** The reply to a command that does not answer what the run here waits for. */
function waitsFor(reason: ParkReason, t: TriggerJobData): string {
  const command = t.comment?.body.trim().split(/\s/)[0] ?? '/autofix';
  return reason === 'plan-approval'
    ? `The Autofix run here waits for its plan to be approved: answer \`${command} approve\`, or \`${command} plan <changes>\` to plan again.`
    : `The Autofix run here is paused (${reason === 'budget' ? 'a spending cap' : 'its LLM endpoint did not answer'}): answer \`${command} continue\` to go on.`;
}

export async function admitRunCommand(
  deps: Pick<AdmissionDeps, 'intake'>,
  t: TriggerJobData,
  command: { word: RunCommand; rest: string },
  octokit: GitHubClient,
  log: Logger,
  reply: (kind: string, body: string) => Promise<unknown>,
): Promise<RunCommandResult> {
  const repo: RepoCoords = { owner: t.repository.owner.login, repo: t.repository.name };
  const { request, nothing } = requestOf(command, t);
  const result = await deps.intake.resume(
    { repoFullName: t.repository.full_name, conversation: t.issue.number },
    request,
  );
  if (result.kind === 'not-parked') {
    log.info({ issue: t.issue.number, command: command.word }, 'nothing parked here for it');
    await reply('nothing-parked', result.parkedFor ? waitsFor(result.parkedFor, t) : nothing);
    return 'nothing-parked';
  }
  log.info(
    { runId: result.runId, stage: result.stage, by: t.sender, command: command.word },
    'parked run resumed',
  );
  if (t.comment) {
    await addReaction(octokit, repo, { kind: 'comment', id: t.comment.id }, '+1').catch(
      (err: unknown) => log.warn({ err }, 'could not add the 👍 reaction'),
    );
  }
  return 'resumed';
}
