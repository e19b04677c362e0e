/** The repository's guidance for agents, read at the job's base commit (context/repo-guidance.ts). */
import { GUIDANCE_FILES, readRepoGuidance } from '../context/repo-guidance.js';
import type { Workspace } from '../git/workspace.js';
import { readCommitFiles } from '../repo-files/read-commit-files.js';

/** A guidance file is a few pages; the prompt keeps 6,000 characters of it anyway. */
const MAX_GUIDANCE_BYTES = 256 * 1024;

/** Regular files only: `AGENTS.md -> /proc/self/environ` is a link, and no guidance. */
export async function readGuidanceAtBase(
  ws: Pick<Workspace, 'mirrorDir' | 'base_commit'>,
): Promise<string | undefined> {
  const files = await readCommitFiles(
    { cwd: ws.mirrorDir, commit: ws.base_commit },
    GUIDANCE_FILES,
    {
      maxBytes: MAX_GUIDANCE_BYTES,
    },
  );
  return readRepoGuidance((path) => {
    const got = files.get(path);
    return Promise.resolve(got?.ok ? got.text : undefined);
  });
}
