/**
 * The mirror scrubbed again right before our git uses it after repository code ran (commit,
 * push, rollback). `openWorkspace` scrubs before the job, but setup and validation run in
 * between: a `filter.<x>.clean` planted then would run in `git add`, a `url.<x>.insteadOf` would
 * send the push elsewhere, in that very job. Under the mirror lock, like every scrub (worktree
 * add and prune write `worktrees/` too). When nothing was planted it reads the config and lists
 * `hooks/` and `worktrees/`, and writes nothing.
 */
import type { Logger } from '../logger.js';
import { withMirrorLock } from './mirror.js';
import { scrubMirror, type ScrubReport } from './scrub-mirror.js';

export function scrubMirrorLocked(mirrorDir: string, logger?: Logger): Promise<ScrubReport> {
  return withMirrorLock(mirrorDir, () => scrubMirror(mirrorDir, logger));
}
