/** The repository's guidance for agents, read at the job's base commit (context/repo-guidance.ts). */
import { readRepoGuidance } from '../context/repo-guidance.js';
import { runGit } from '../git/run-git.js';
import type { Workspace } from '../git/workspace.js';

export function readGuidanceAtBase(ws: Workspace): Promise<string | undefined> {
  return readRepoGuidance(async (path) => {
    const shown = await runGit(['show', `${ws.base_commit}:${path}`], {
      cwd: ws.mirrorDir,
      okCodes: [128],
    });
    return shown.code === 0 ? shown.stdout : undefined;
  });
}
