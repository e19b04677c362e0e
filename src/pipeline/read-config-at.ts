/**
 * `.github/autofix.yml` as a commit holds it, for the runners that read it from git rather than
 * from GitHub (`autofix run`, the modes). None is the defaults; a link or anything else that is
 * not a regular text file is a configuration error that says so (its target is never read).
 */
import { parseRepoConfig, type RepoConfig } from '../config/repo-config.js';
import { AutofixError } from '../errors.js';
import { readCommitFiles, type CommitSource } from '../repo-files/read-commit-files.js';

export const CONFIG_PATH = '.github/autofix.yml';

export async function readConfigAt(source: CommitSource): Promise<RepoConfig> {
  const got = (await readCommitFiles(source, [CONFIG_PATH], { maxBytes: 256 * 1024 })).get(
    CONFIG_PATH,
  );
  if (got?.ok) return parseRepoConfig(got.text);
  if (!got || got.reason === 'missing') return parseRepoConfig(undefined);
  throw new AutofixError(
    'CONFIG_INVALID',
    `${got.message}: the configuration must be a regular YAML file`,
    { details: { file: CONFIG_PATH, reason: got.reason } },
  );
}
