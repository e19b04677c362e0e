/** Back to the baseline after a failed attempt (the tree was clean at preflight). */
import { runGit } from '../../../git/run-git.js';

export async function rollbackRepo(repo: string, baselineCommit: string): Promise<void> {
  await runGit(['reset', '--quiet', '--hard', baselineCommit], { cwd: repo });
  await runGit(['clean', '-q', '-fd'], { cwd: repo });
}
