/** The repository context a stage puts in its prompt, built from a checkout. */
import { buildPromptContext, DEFAULT_CONTEXT_BUDGET } from '../context/build-prompt-context.js';
import { buildRepoMap, readPolicy } from '../context/build-repo-map.js';
import { filesToReadNext } from '../context/files-to-read-next.js';
import { rankFiles } from '../context/rank-files.js';
import { rankedNotes } from '../context/ranked-notes.js';
import type { IssueInput, RepoContext } from './ports.js';

export async function prepareContext(
  checkout: { worktree: string; gitDir?: string },
  issue: IssueInput,
  budget = DEFAULT_CONTEXT_BUDGET,
): Promise<RepoContext> {
  const text = [issue.title, issue.body, issue.instructions ?? '', ...(issue.comments ?? [])].join(
    '\n\n',
  );
  // The job's git directory, not the `.git` link that repository code could have rewritten.
  const map = await buildRepoMap(checkout.worktree, {
    ...readPolicy(text),
    ...(checkout.gitDir ? { gitDir: checkout.gitDir } : {}),
  });
  const ranking = rankFiles(map, text);
  const context = buildPromptContext(map, ranking, { budget });
  const ranked = ranking.files.map((f) => f.path);
  return {
    repoMap: context.outline.text,
    codeContext: context.code.text,
    tokens: context.tokens,
    ranked,
    top: rankedNotes(ranking.files),
    next: filesToReadNext(ranked, context.code.files),
  };
}
