/**
 * Verify again (issue #17, `check_run.rerequested` on the "Autofix verification" check run): the
 * PR's head commit as it is, checked out in a fresh workspace, through the repository's `setup`
 * and `validate` commands and the reproduction its commits name, in the sandbox; the verdict
 * replaces the check run's. Nothing is written to the repository, and no model is asked.
 */
import type { VerifyOutput } from '../../contracts.js';
import { checkSandbox, withRepoSandbox } from '../../exec/index.js';
import { checkoutBranchCommit } from '../../git/branch.js';
import { changedFiles } from '../../git/changed-files.js';
import { REPRODUCTION_TRAILER } from '../../git/identity.js';
import { runGit } from '../../git/run-git.js';
import type { Workspace } from '../../git/workspace.js';
import { decideVerdict, type VerdictInput } from '../../verdict/decide-verdict.js';
import { AutofixError } from '../../errors.js';
import { createCodeWorkspace } from '../code/code-workspace.js';
import { bounded } from './code-output.js';
import { signalOf, type StageEnv } from './stage-env.js';
import type { StageResult } from './stage-fn.js';

/** The files the PR changes (from where it left the base branch) and the reproduction it names. */
async function whatThePrHolds(
  ws: Workspace,
  head: string,
): Promise<{ changes: { path: string; operation: string }[]; reproduction?: string }> {
  const base = (
    await runGit(['merge-base', ws.base_commit, head], { cwd: ws.mirrorDir })
  ).stdout.trim();
  const changes = await changedFiles(ws, base, head);
  const trailers = await runGit(
    [
      'log',
      `--format=%(trailers:key=${REPRODUCTION_TRAILER},valueonly,separator=%x00)`,
      `${base}..${head}`,
    ],
    { cwd: ws.mirrorDir },
  );
  // Newest first: the latest reproduction a commit of the PR names.
  const reproduction = trailers.stdout
    .split(/[\0\n]/)
    .map((line) => line.trim())
    .find(Boolean);
  return { changes, ...(reproduction ? { reproduction } : {}) };
}

export async function verifyStage(env: StageEnv): Promise<StageResult<VerifyOutput>> {
  const { facts } = env;
  const target = facts.verify;
  if (!target) {
    throw new AutofixError('INTERNAL', 'a verify run without the commit to verify', {
      recoverable: false,
    });
  }
  const { config } = facts;
  const sandbox = withRepoSandbox(env.sandbox, config.sandbox);
  const ran = await env.workspace(async (ws) => {
    await checkSandbox(sandbox);
    if (!(await checkoutBranchCommit(ws, target.branch, target.headSha))) return undefined;
    const held = await whatThePrHolds(ws, target.headSha);
    const commands = [...config.validate, ...(held.reproduction ? [held.reproduction] : [])];
    const codeWs = createCodeWorkspace(
      ws,
      { ...config, validate: commands, baseline: false },
      { sandbox: env.sandbox, redact: env.redact, ...signalOf(env), logger: env.log },
    );
    const setup = await codeWs.setup({});
    if (setup && !setup.passed) return { ...held, results: setup.results, worktree: ws.worktree };
    // Every command runs (a failure does not hide the next one's result).
    const run = await codeWs.validate({ skipSetup: true, tolerate: () => '' });
    return { ...held, results: run.results, worktree: ws.worktree };
  });
  if (!ran) {
    return {
      kind: 'stop',
      reason: `Commit ${target.headSha.slice(0, 7)} is no longer on \`${target.branch}\`: nothing to verify.`,
    };
  }
  const validation = ran.results.map(bounded);
  const verdict: VerdictInput = {
    headSha: target.headSha,
    runId: facts.runId,
    validation,
    preexisting: [],
    changes: ran.changes,
    amendments: [],
    sandbox: sandbox.mode,
    issueNumber: facts.issue.number,
    rerun: { reproduction: ran.reproduction ?? null },
    worktree: ran.worktree,
    ...(facts.githubHost ? { githubHost: facts.githubHost } : {}),
  };
  await env.publishVerdict?.(verdict);
  return {
    kind: 'continue',
    output: {
      headSha: target.headSha,
      validation,
      conclusion: decideVerdict(verdict).conclusion,
    },
  };
}
