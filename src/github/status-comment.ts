/**
 * The run's status comment on GitHub: found by its hidden marker or created once, then edited in
 * place. Every call is best effort — a failed edit is logged and never fails the run.
 */
import type { Logger } from '../logger.js';
import { runMarker } from './markdown.js';
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
}

export interface StatusComment {
  facts(): StatusFacts;
  commentId(): number | undefined;
  setStage(stage: string, status: StageStatus): void;
  merge(patch: StatusPatch): void;
  setOutcome(outcome: NonNullable<StatusFacts['outcome']>): void;
  /** Finds the comment a previous attempt created, or creates it. */
  ensure(): Promise<number | undefined>;
  /** Renders the facts and edits the comment (creating it first when needed). */
  publish(): Promise<void>;
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
      // The run's own repository and issue: the only closing references and links LLM text
      // may keep live.
      repo: options.repo,
      issueNumber: options.issueNumber,
      ...(options.githubHost ? { githubHost: options.githubHost } : {}),
    });

  /** True when the comment was created with the current facts (no edit needed). */
  const create = async (): Promise<boolean> => {
    try {
      commentId = await findCommentByMarker(
        octokit,
        repo,
        options.issueNumber,
        runMarker(options.runId),
      );
      if (commentId !== undefined) return false;
      const { data } = await octokit.rest.issues.createComment({
        ...repo,
        issue_number: options.issueNumber,
        body: body(),
      });
      commentId = data.id;
      return true;
    } catch (err) {
      log.warn({ err }, 'could not create the status comment');
      return false;
    }
  };

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
    async ensure() {
      if (commentId === undefined) await create();
      return commentId;
    },
    async publish() {
      if (commentId === undefined && (await create())) return;
      if (commentId === undefined) return;
      try {
        await octokit.rest.issues.updateComment({ ...repo, comment_id: commentId, body: body() });
      } catch (err) {
        log.warn({ err }, 'could not edit the status comment');
      }
    },
  };
}
