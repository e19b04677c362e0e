/**
 * The run's status comment on GitHub: its facts, how they render, and the calls that find it by
 * its hidden marker, create it and edit it in place (when is the publisher's business:
 * runs/status-publisher.ts). Every call is best effort — a failed edit is logged and never fails
 * the run.
 */
import type { Logger } from '../logger.js';
import { runMarker } from '../text/markdown.js';
import { findCommentByMarker } from './post-once.js';
import { renderStatusComment } from './render-status-comment.js';
import type { GitHubClient, RepoCoords, StageStatus, StatusFacts, StatusPatch } from './types.js';

export interface StatusCommentOptions {
  octokit: GitHubClient;
  repo: RepoCoords;
  /** Issue or PR the comment lives on. */
  issueNumber: number;
  /** Links to the repository on this host stay live in LLM-written text. */
  githubHost?: string;
  runId: string;
  stageOrder: readonly string[];
  command: string;
  log: Logger;
  facts: StatusFacts;
  commentId?: number;
  /** The run page's signed link, named in the footer (absent without PUBLIC_URL). */
  runPage?: string;
}

export interface StatusComment {
  facts(): StatusFacts;
  commentId(): number | undefined;
  setStage(stage: string, status: StageStatus): void;
  merge(patch: StatusPatch): void;
  setOutcome(outcome: NonNullable<StatusFacts['outcome']>): void;
  /** The comment as it would be rendered now. */
  render(): string;
  /** The GitHub calls, for a publisher that decides when to make them. Best effort each. */
  target(): {
    find(): Promise<number | undefined>;
    create(body: string): Promise<number | undefined>;
    update(commentId: number, body: string): Promise<void>;
  };
}

export function createStatusComment(options: StatusCommentOptions): StatusComment {
  let facts: StatusFacts = structuredClone(options.facts);
  let commentId = options.commentId;
  const { octokit, repo, log } = options;
  const body = (): string =>
    renderStatusComment({
      runId: options.runId,
      stageOrder: options.stageOrder,
      facts,
      command: options.command,
      ...(options.runPage ? { runPage: options.runPage } : {}),
      // The run's own repository and issue: the only closing references and links LLM text
      // may keep live.
      repo: options.repo,
      issueNumber: options.issueNumber,
      ...(options.githubHost ? { githubHost: options.githubHost } : {}),
    });

  return {
    facts: () => facts,
    commentId: () => commentId,
    setStage(stage, status) {
      facts = { ...facts, stages: { ...facts.stages, [stage]: status } };
    },
    merge(patch) {
      facts = { ...facts, ...patch, stages: facts.stages };
    },
    setOutcome(outcome) {
      facts = { ...facts, outcome };
    },
    render: body,
    target: () => ({
      find: async () => {
        try {
          return await findCommentByMarker(
            octokit,
            repo,
            options.issueNumber,
            runMarker(options.runId),
          );
        } catch (err) {
          log.warn({ err }, 'could not look for the status comment');
          return undefined;
        }
      },
      create: async (text) => {
        try {
          const { data } = await octokit.rest.issues.createComment({
            ...repo,
            issue_number: options.issueNumber,
            body: text,
          });
          commentId = data.id;
          return data.id;
        } catch (err) {
          log.warn({ err }, 'could not create the status comment');
          return undefined;
        }
      },
      update: async (id, text) => {
        commentId = id;
        try {
          await octokit.rest.issues.updateComment({ ...repo, comment_id: id, body: text });
        } catch (err) {
          log.warn({ err }, 'could not edit the status comment');
        }
      },
    }),
  };
}
