/** The stage table's run facts from a job: read from what intake decided, never re-derived. */
import { renderFeedbackInstructions } from '../../../github/review-notes.js';
import { cloneUrlHost } from '../../../text/repo-url.js';
import { renderCiInstructions } from './ci-instructions.js';
import type { RunFacts } from '../../../pipeline/stages/stage-env.js';
import type { RunJobData } from '../../../runs/types.js';

/** The trigger's words for the prompts: the `/autofix …` text, or the feedback and its review. */
function instructionsOf(job: RunJobData): string {
  const t = job.trigger;
  if (t.kind === 'pr-feedback') return renderFeedbackInstructions(t.feedback, t.review ?? []);
  if (t.kind === 'ci-failure') return renderCiInstructions(t);
  return t.kind === 'issue-comment' ? t.instructions : '';
}

/** `runPage`: the run page's signed link, when the app has a public URL (PUBLIC_URL). */
export function runFactsFor(job: RunJobData, runPage?: string): RunFacts {
  const instructions = instructionsOf(job);
  const host = cloneUrlHost(job.repository.cloneUrl);
  const { feedback, replaceBranch, existingBranch, commitTrailers, verify } = job.facts;
  return {
    runId: job.runId,
    issue: {
      repository: job.repository.fullName,
      number: job.issue.number,
      title: job.issue.title,
      body: job.issue.body,
      ...(instructions ? { instructions } : {}),
    },
    config: job.config,
    baseBranch: job.repository.defaultBranch,
    ...(feedback ? { feedback } : {}),
    ...(replaceBranch ? { replaceBranch } : {}),
    existingBranch,
    ...(commitTrailers ? { commitTrailers } : {}),
    ...(verify ? { verify } : {}),
    startOverHint: `Comment \`${job.config.command} fresh\` to start over from ${job.repository.defaultBranch} and replace it.`,
    ...(host ? { githubHost: host } : {}),
    ...(runPage ? { runPage } : {}),
    ...(job.planNotes && job.planNotes.length > 0 ? { planNotes: job.planNotes } : {}),
  };
}
