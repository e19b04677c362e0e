/**
 * The context a stage puts in its prompt, one call for the pipeline: repository outline
 * (`{{repo_map}}`) plus code of the ranked files (`{{code_context}}`), together within one
 * token budget. The outline gets a share first; what it leaves goes to the code.
 */
import type { RepoMap } from './build-repo-map.js';
import { buildCodeContext, type CodeContext } from './build-code-context.js';
import type { Ranking } from './rank-files.js';
import { renderRepoOutline, type RepoOutline } from './render-repo-outline.js';

export interface PromptContextOptions {
  /** Tokens for outline + code together. */
  budget: number;
  /** Share of the budget the outline may take (default 0.2). */
  outlineShare?: number;
  maxFiles?: number;
}

export interface PromptContext {
  outline: RepoOutline;
  code: CodeContext;
  /** outline.tokens + code.tokens, never above the budget. */
  tokens: number;
  budget: number;
}

/** Default budget for a stage's context: leaves room for instructions and the answer. */
export const DEFAULT_CONTEXT_BUDGET = 12_000;

/** The outline's share of a context budget (the rest goes to the code). */
export function outlineBudget(budget: number, outlineShare = 0.2): number {
  return Math.floor(budget * outlineShare);
}

export function buildPromptContext(
  map: RepoMap,
  ranking: Ranking,
  options: PromptContextOptions,
): PromptContext {
  const { budget } = options;
  const outline = renderRepoOutline(map, ranking, outlineBudget(budget, options.outlineShare));
  const code = buildCodeContext(map, ranking, {
    budget: budget - outline.tokens,
    ...(options.maxFiles === undefined ? {} : { maxFiles: options.maxFiles }),
  });
  return { outline, code, tokens: outline.tokens + code.tokens, budget };
}
