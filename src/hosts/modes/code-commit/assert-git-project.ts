import { AutofixError } from '../../../errors.js';
import { runGit } from '../../../git/run-git.js';

/** The supervisor reviews the LLM's changes with `git status` / `git diff`. */
export async function assertGitProject(projectDir: string): Promise<void> {
  await runGit(['rev-parse', '--git-dir'], { cwd: projectDir }).catch(() => {
    throw new AutofixError(
      'CONFIG_INVALID',
      `${projectDir} is not inside a git repository: code-commit leaves its changes for \`git status\` / \`git diff\``,
    );
  });
}
