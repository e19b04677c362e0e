/**
 * Where a job works under `AUTOFIX_WORKDIR`: its folder `jobs/<job id>` and, inside it, the
 * repository's worktree named after the repository (`owner/name` → `name`). The workspace makes
 * them; whatever else needs the path of a job's worktree asks here.
 */
import { join } from 'node:path';

/** The folder that holds every job's folder. */
export function jobsDir(workdir: string): string {
  return join(workdir, 'jobs');
}

/** The folder of job `jobId` and the worktree of `repo` (`owner/name`) in it. */
export function jobPaths(
  workdir: string,
  jobId: string,
  repo: string,
): { jobDir: string; worktree: string } {
  const jobDir = join(jobsDir(workdir), jobId);
  return { jobDir, worktree: join(jobDir, repo.split('/')[1] ?? 'repo') };
}
