/**
 * The commands that answer a parked run rather than start one: `/autofix continue` goes on from
 * where a run paused (a budget, an LLM that stayed down). Only from a user who may write (the
 * caller checked); on an issue with nothing paused, one reply says so and nothing starts.
 */
import { addReaction } from '../github/reactions.js';
import type { GitHubClient, RepoCoords } from '../github/types.js';
import type { Logger } from '../logger.js';
import type { TriggerJobData } from './trigger-types.js';
import type { AdmissionDeps } from './webhook-deps.js';

/** The first word of the instructions when it is a run command. */
export type RunCommand = 'continue';

export function runCommandOf(instructions: string): { word: RunCommand; rest: string } | undefined {
  const match = /^(continue)(?:\s+|$)/i.exec(instructions);
  if (!match) return undefined;
  return { word: match[1]!.toLowerCase() as RunCommand, rest: instructions.slice(match[0].length) };
}

export type RunCommandResult = 'resumed' | 'nothing-parked';

export async function admitRunCommand(
  deps: Pick<AdmissionDeps, 'intake'>,
  t: TriggerJobData,
  octokit: GitHubClient,
  log: Logger,
  reply: (kind: string, body: string) => Promise<unknown>,
): Promise<RunCommandResult> {
  const repo: RepoCoords = { owner: t.repository.owner.login, repo: t.repository.name };
  const result = await deps.intake.resume(
    { repoFullName: t.repository.full_name, conversation: t.issue.number },
    {
      by: t.sender,
      key: t.triggerKey,
      reasons: ['budget', 'llm-unavailable'],
      grantAnotherCap: true,
    },
  );
  if (result.kind === 'not-parked') {
    log.info({ issue: t.issue.number }, '`continue` with no run paused here: nothing to do');
    await reply('nothing-parked', 'There is no paused Autofix run here to continue.');
    return 'nothing-parked';
  }
  log.info({ runId: result.runId, stage: result.stage, by: t.sender }, 'parked run resumed');
  if (t.comment) {
    await addReaction(octokit, repo, { kind: 'comment', id: t.comment.id }, '+1').catch(
      (err: unknown) => log.warn({ err }, 'could not add the 👍 reaction'),
    );
  }
  return 'resumed';
}
