/**
 * The last stage, the publish step: the PR text, then the kept commit moved to the branch (and
 * the private ref deleted) in one push, then the PR opened or updated. Nothing before it touched
 * the remote's branches; a failure after the push is rolled back by the runner that ran it.
 */
import type { PullRequestOutput } from '../../contracts.js';
import { withRepoSandbox } from '../../exec/index.js';
import { publishKept } from '../../git/keep-commit.js';
import type { VerdictInput } from '../../verdict/decide-verdict.js';
import { writePullRequest } from '../pr/write-pull-request.js';
import { earlier, issueOf, signalOf, type StageEnv } from './stage-env.js';
import type { StageResult } from './stage-fn.js';

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
          ...(facts.runPage ? { runPage: facts.runPage } : {}),
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
  // The verdict on the commit the PR now shows: best effort, never a reason to fail the run.
  await env.publishVerdict?.(verdictOf(env, branch.kept.sha));
  return { kind: 'continue', output: { ...output, pr: opened.pr } };
}

/** What was verified, for the check run: validation, scope, sandbox, usage, reproduction. */
function verdictOf(env: StageEnv, headSha: string): VerdictInput {
  const { code } = earlier(env, 'code');
  const plan = earlier(env, 'plan');
  const r = env.outputs.reproduce;
  const head =
    r?.status === 'reproduced' ? code.validation.find((v) => v.command === r.command) : undefined;
  return {
    headSha,
    runId: env.facts.runId,
    validation: code.validation,
    preexisting: code.preexisting,
    changes: code.changes,
    planFiles: plan.file_changes.map((c) => c.path),
    amendments: code.amendments,
    sandbox: withRepoSandbox(env.sandbox, env.facts.config.sandbox).mode,
    usage: env.usage(),
    issueNumber: env.facts.issue.number,
    ...(env.facts.githubHost ? { githubHost: env.facts.githubHost } : {}),
    ...(r?.status === 'reproduced'
      ? {
          reproduction: {
            test: r.test_name,
            file: r.path,
            command: r.command,
            base: { exitCode: r.base_exit_code, excerpt: r.base_failure },
            head: head
              ? { exitCode: head.exit_code, durationMs: head.duration_ms }
              : { exitCode: null, excerpt: 'not run with the fix' },
          },
        }
      : {}),
  };
}
