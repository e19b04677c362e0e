/** The real CodeWorkspace: the edit engine and the sandboxed runner over a job's worktree. */
import type { RepoConfig } from '../../config/repo-config.js';
import { applyEdits, pathPolicy, type PathPolicy } from '../../edits/index.js';
import { readRepoText } from '../../edits/read-repo-text.js';
import { runValidation, type ValidationOptions } from '../../exec/index.js';
import { gitApplyCheck } from '../../git/apply-check.js';
import { checkIgnore } from '../../git/check-ignore.js';
import type { Workspace } from '../../git/workspace.js';
import type { CodeWorkspace } from './run-code-agent.js';

export function repoPathPolicy(
  config: Pick<RepoConfig, 'protected_paths' | 'allowed_paths'>,
): PathPolicy {
  return pathPolicy({ protectedPaths: config.protected_paths, allowedPaths: config.allowed_paths });
}

export function createCodeWorkspace(
  ws: Workspace,
  config: RepoConfig,
  options: Omit<ValidationOptions, 'skipSetup' | 'home' | 'tmpDir' | 'readOnlyPaths'> = {},
): CodeWorkspace {
  const policy = repoPathPolicy(config);
  return {
    readFile: (path) => readRepoText(ws.worktree, path),
    apply: (format, texts, scope) =>
      applyEdits({
        repoDir: ws.worktree,
        format,
        text: texts,
        scope,
        policy,
        isIgnored: (paths) => checkIgnore(ws.worktree, paths, { gitDir: ws.gitDir }),
        checkDiff: (dir, diff) => gitApplyCheck(dir, diff, { gitDir: ws.gitDir }),
      }),
    validate: ({ skipSetup }) =>
      runValidation(config, ws.worktree, {
        ...options,
        skipSetup,
        home: ws.homeDir,
        tmpDir: ws.tmpDir,
        // The workspace's own list plus the caller's (directories holding the worker's secrets).
        hiddenPaths: [...ws.sandboxHidden, ...(options.hiddenPaths ?? [])],
        readOnlyPaths: ws.sandboxReadOnly,
      }),
  };
}
