/** PR stage: the LLM writes the summary paragraph; everything else is the deterministic template. */
import type { Commit, FixPlan, ReproductionOutput, TriageResult } from '../../contracts.js';
import { isAutofixError } from '../../errors.js';
import { codeSpan } from '../../text/markdown.js';
import { prSummarySchema } from '../../llm/schemas.js';
import { askAgent } from '../ask-agent.js';
import type { CodeResult } from '../code/run-code-agent.js';
import type { IssueInput, PipelinePorts } from '../ports.js';
import { renderPrBody } from './render-pr-body.js';

export interface PullRequestInput {
  issue: IssueInput;
  triage: TriageResult;
  plan: FixPlan;
  code: Pick<
    CodeResult,
    'changes' | 'validation' | 'warnings' | 'notes' | 'amendments' | 'exploration'
  >;
  commit: Commit;
  model: string;
  usage?: { totalTokens: number; costUsd?: number };
  runId?: string;
  /** The run page's signed link (the app with PUBLIC_URL set), named in the body's details. */
  runPage?: string;
  reproduction?: ReproductionOutput;
  /**
   * The repository's GitHub host (`github.com`, a GHE host): LLM links into the repository stay
   * live in the body. Without it no LLM link does.
   */
  githubHost?: string;
}

/** `owner/name` as the app's runs carry it; a local run's directory name has no owner. */
function repoCoords(repository: string): { owner: string; repo: string } | undefined {
  const [owner, repo, ...rest] = repository.split('/');
  return owner && repo && rest.length === 0 ? { owner, repo } : undefined;
}

export interface PullRequestText {
  title: string;
  body: string;
}

const MAX_DIFF_FOR_SUMMARY = 12_000;

export async function writePullRequest(
  input: PullRequestInput,
  ports: PipelinePorts,
): Promise<PullRequestText> {
  const { commit, code } = input;
  let summary: string;
  try {
    ({ summary } = await askAgent(ports, {
      agent: 'pr-generator',
      stage: 'pr',
      model: input.model,
      schema: prSummarySchema,
      schemaName: 'PrSummary',
      data: {
        issue_number: input.issue.number,
        issue_title: input.issue.title,
        issue_body: input.issue.body || '(empty)',
        repo_guidance: input.issue.guidance?.trim() || '(none)',
        plan: input.plan,
        commit_message: commit.message,
        files_changed: code.changes.map((c) => `${c.path} (${c.operation})`).join('\n'),
        diff:
          commit.diff.length > MAX_DIFF_FOR_SUMMARY
            ? `${commit.diff.slice(0, MAX_DIFF_FOR_SUMMARY)}\n… (diff shortened)`
            : commit.diff,
        validation_results:
          code.validation.map((r) => `${r.command}: exit ${r.exit_code ?? 'none'}`).join('\n') ||
          '(no validation commands configured)',
      },
    }));
  } catch (err) {
    // A summary is a nicety: an unusable one must not throw away a validated commit.
    if (!isAutofixError(err) || err.code !== 'LLM_OUTPUT_INVALID') throw err;
    ports.log.warn({ err: err.message }, 'PR summary unusable; using the triage summary');
    summary = input.triage.summary;
  }
  const notes = [
    ...code.notes.user,
    ...code.amendments.map((a) => `Plan amendment: ${codeSpan(a.path)} also changed: ${a.why}`),
  ];
  const repo = repoCoords(input.issue.repository);
  const body = renderPrBody({
    issueNumber: input.issue.number,
    ...(repo ? { repo } : {}),
    ...(input.githubHost ? { githubHost: input.githubHost } : {}),
    summary,
    triage: input.triage,
    plan: input.plan,
    commit,
    changes: code.changes,
    validation: code.validation,
    notes,
    ...(code.warnings.length > 0 ? { warnings: code.warnings } : {}),
    ...(input.usage ? { usage: input.usage } : {}),
    ...(input.runId ? { runId: input.runId } : {}),
    ...(input.runPage ? { runPage: input.runPage } : {}),
    ...(input.reproduction ? { reproduction: input.reproduction } : {}),
    ...(code.exploration ? { exploration: code.exploration } : {}),
  });
  return { title: commit.message.split('\n')[0] ?? '', body };
}
