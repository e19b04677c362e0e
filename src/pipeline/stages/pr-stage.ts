/**
 * The last stage, the publish step: the PR text, then the kept commit moved to the branch (and
 * the private ref deleted) in one push, then the PR opened or updated. Nothing before it touched
 * the remote's branches; a failure after the push is rolled back by the runner that ran it.
 */
import type { PullRequestOutput } from '../../contracts.js';
import { publishKept } from '../../git/keep-commit.js';
import { writePullRequest } from '../pr/write-pull-request.js';
import { earlier, issueOf, signalOf, type StageEnv } from './stage-env.js';
import type { StageResult } from './stage-table.js';

export async function prStage(env: StageEnv): Promise<StageResult<PullRequestOutput>> {
  const { facts } = env;
  const triage = earlier(env, 'triage');
  const plan = earlier(env, 'plan');
  const { commit, code, branch } = earlier(env, 'code');
  // A commit on an open PR leaves its title and body alone: no text to write.
  const text = facts.feedback
    ? undefined
    : await writePullRequest(
        {
          issue: issueOf(env),
          triage,
          plan,
          code,
          commit,
          model: env.model('pr'),
          usage: env.usage(),
          runId: facts.runId,
          ...(env.outputs.reproduce ? { reproduction: env.outputs.reproduce } : {}),
          ...(facts.githubHost ? { githubHost: facts.githubHost } : {}),
        },
        { llm: env.llm, log: env.log, ...signalOf(env) },
      );
  await env.workspace(async (ws, io) => {
    ws.branch = {
      name: branch.name,
      issue: facts.issue.number,
      remoteShaBefore: branch.remoteShaBefore,
      pushedSha: null,
      kept: branch.kept,
    };
    await publishKept(ws, { ...(io.token ? { token: io.token } : {}), logger: env.log });
  });
  const output: PullRequestOutput = {
    title: text?.title ?? '',
    body: text?.body ?? '',
    branch: branch.name,
  };
  if (!env.openPullRequest) return { kind: 'continue', output };
  const opened = await env.openPullRequest({
    branch: branch.name,
    triage,
    ...(text ? { text } : {}),
  });
  if (opened.kind === 'closed') return { kind: 'stop', reason: opened.reason };
  return { kind: 'continue', output: { ...output, pr: opened.pr } };
}
