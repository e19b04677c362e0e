/**
 * The GitHub side of a failed run: a comment that explains it, the `automation-failed` label
 * (created if missing) and 😕 on the trigger. Each step is independent and best effort, so one
 * refused call does not hide the others.
 */
import type { ErrorShape } from '../errors.js';
import type { Logger } from '../logger.js';
import { addLabels, ensureLabel, FAILED_LABEL } from './labels.js';
import { runMarker } from '../text/markdown.js';
import { postOnce } from './post-once.js';
import { addReaction } from './reactions.js';
import { renderFailureComment } from './render-failure-comment.js';
import type { GitHubClient, ReactionTarget, RepoCoords } from './types.js';

export interface FailureReport {
  repo: RepoCoords;
  /** Issue or PR the run was triggered on. */
  issueNumber: number;
  githubHost?: string;
  trigger: ReactionTarget;
  runId: string;
  stage: string;
  error: ErrorShape;
  attempts: number;
  command: string;
  redact: (text: string) => string;
}

export async function reportRunFailure(
  octokit: GitHubClient,
  report: FailureReport,
  log: Logger,
): Promise<void> {
  const { repo, issueNumber } = report;
  const steps: [string, () => Promise<unknown>][] = [
    [
      'failure comment',
      // Once per run: a failure reported again (the worker died while reporting) is not posted twice.
      () =>
        postOnce(
          octokit,
          { repo, issueNumber, marker: runMarker(`${report.runId}:failure`) },
          renderFailureComment(report),
          log,
        ),
    ],
    [
      'failure label',
      async () => {
        await ensureLabel(octokit, repo, FAILED_LABEL);
        await addLabels(octokit, repo, issueNumber, [FAILED_LABEL.name]);
      },
    ],
    ['failure reaction', () => addReaction(octokit, repo, report.trigger, 'confused')],
  ];
  for (const [what, step] of steps) {
    try {
      await step();
    } catch (err) {
      log.warn({ err }, `could not post the ${what}`);
    }
  }
}
