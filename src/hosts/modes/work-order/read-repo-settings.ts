/**
 * What the repository itself says about running commands, read from the baseline commit:
 *
 * Global verification, run before the acceptance commands in every attempt:
 *   1. `bash scripts/verify.sh` when the repository has `scripts/verify.sh`;
 *   2. otherwise the `validate` commands of `.github/autofix.yml` (the same commands the bot runs);
 *   3. otherwise none (the acceptance commands alone decide).
 * The config's `sandbox`, `env_passthrough` and `protected_paths` apply as in every other mode.
 */
import type { RepoConfig } from '../../../config/repo-config.js';
import { splitCommand } from '../../../exec/index.js';
import { readConfigAt } from '../../../pipeline/read-config-at.js';
import { readCommitFiles } from '../../../repo-files/read-commit-files.js';

export const VERIFY_SCRIPT = 'scripts/verify.sh';

export interface RepoSettings {
  verify: string[][];
  sandbox: RepoConfig['sandbox'];
  envPassthrough: string[];
  protectedPaths: string[];
}

export async function readRepoSettings(repo: string): Promise<RepoSettings> {
  const config = await readConfigAt({ cwd: repo, commit: 'HEAD' });
  // The script runs as a file of the repository's: a link in its place is not it.
  const script = (await readCommitFiles({ cwd: repo, commit: 'HEAD' }, [VERIFY_SCRIPT])).get(
    VERIFY_SCRIPT,
  );
  const hasScript = script?.ok === true;
  return {
    verify: hasScript ? [['bash', VERIFY_SCRIPT]] : config.validate.map(splitCommand),
    sandbox: config.sandbox,
    envPassthrough: config.env_passthrough,
    protectedPaths: config.protected_paths,
  };
}
