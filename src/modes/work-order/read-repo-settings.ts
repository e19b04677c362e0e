/**
 * What the repository itself says about running commands, read from the baseline commit:
 *
 * Global verification (seed 002 §6.5), run before the acceptance commands in every attempt:
 *   1. `bash scripts/verify.sh` when the repository has `scripts/verify.sh`;
 *   2. otherwise the `validate` commands of `.github/autofix.yml` (the same commands the bot runs);
 *   3. otherwise none (the acceptance commands alone decide).
 * The config's `sandbox`, `env_passthrough` and `protected_paths` apply as in every other mode.
 */
import { parseRepoConfig, type RepoConfig } from '../../config/repo-config.js';
import { splitCommand } from '../../exec/index.js';
import { runGit } from '../../git/run-git.js';

export const VERIFY_SCRIPT = 'scripts/verify.sh';

export interface RepoSettings {
  verify: string[][];
  sandbox: RepoConfig['sandbox'];
  envPassthrough: string[];
  protectedPaths: string[];
}

async function showAtHead(repo: string, path: string): Promise<string | undefined> {
  const r = await runGit(['show', `HEAD:${path}`], { cwd: repo, okCodes: [128] });
  return r.code === 0 ? r.stdout : undefined;
}

export async function readRepoSettings(repo: string): Promise<RepoSettings> {
  const config = parseRepoConfig(await showAtHead(repo, '.github/autofix.yml'));
  const hasScript = (await showAtHead(repo, VERIFY_SCRIPT)) !== undefined;
  return {
    verify: hasScript ? [['bash', VERIFY_SCRIPT]] : config.validate.map(splitCommand),
    sandbox: config.sandbox,
    envPassthrough: config.env_passthrough,
    protectedPaths: config.protected_paths,
  };
}
