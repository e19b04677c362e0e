/**
 * What every stage receives (docs/ARCHITECTURE.md): I/O comes in through these ports, so the same
 * stage functions run in the CLI (in process) and in the app (from BullMQ processors).
 */
import type { FileToReadNext } from '../context/files-to-read-next.js';
import type { RankedFileNote, StageName, StepName } from '../contracts.js';
import type { LlmClient } from '../llm/create-llm-client.js';
import type { OverrideReader } from '../llm/load-agent.js';
import type { Logger } from '../logger.js';

export type { StageName, StepName };

export interface ProgressEvent {
  /** A stage, or a step within one: opening the workspace, the repository's `setup`. */
  stage: StepName;
  /** `skipped`: the step ended without doing its work (a reproduction not written; why in `message`). */
  status: 'start' | 'done' | 'skipped' | 'failed' | 'info';
  message: string;
  /** A long step saying it is still running (a terminal with a live line can skip it). */
  heartbeat?: boolean;
}

export interface PipelinePorts {
  llm: LlmClient;
  log: Logger;
  /** `.github/autofix/agents/<name>.md` on the default branch, when the repository has one. */
  readOverride?: OverrideReader;
  /** Shipped `agents/` directory (found next to the package when absent). */
  agentsDir?: string;
  progress?: (event: ProgressEvent) => void;
  signal?: AbortSignal;
}

/** The issue as prompts see it: text already sanitized (text/untrusted-text.ts). */
export interface IssueInput {
  /** `owner/name`, or the directory name for a local run. */
  repository: string;
  number: number;
  title: string;
  body: string;
  comments?: string[];
  /** Extra instructions from the `/autofix …` comment. */
  instructions?: string;
  /** The repository's guidance for agents at the base commit (AGENTS.md and the like). */
  guidance?: string;
}

/** Outline and code of the ranked files, rendered for `{{repo_map}}` and `{{code_context}}`. */
export interface RepoContext {
  repoMap: string;
  codeContext: string;
  tokens: number;
  /** Every file the ranking scored, most relevant to the issue first (the tools list them so). */
  ranked: readonly string[];
  /** The first ranked files with the ranking's reasons (bounded: `rankedNotes`). */
  top?: readonly RankedFileNote[];
  /** The ranked files after those `codeContext` shows whole: the tool loop suggests them. */
  next: readonly FileToReadNext[];
}
