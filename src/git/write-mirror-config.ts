/**
 * The mirror's whole git config, as the bot writes it. It is byte for byte what `git init --bare`
 * and the three `git config` calls of earlier versions left, so existing mirrors pass
 * `scrubMirror` unchanged. Any other entry was put there by someone else (issue #11: repository
 * code that escaped the sandbox wrote `core.fsmonitor`), and `scrubMirror` puts this back.
 *
 * Fixed rather than probed: the workdir is on a Linux filesystem (executable bits, symlinks,
 * case-sensitive names), where these are also git's own defaults.
 */
import { randomUUID } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const MIRROR_CONFIG = [
  '[core]',
  '\trepositoryformatversion = 0',
  '\tfilemode = true',
  '\tbare = true',
  // Reflogs of every fetched ref would only grow.
  '\tlogAllRefUpdates = false',
  '[gc]',
  // `gc --auto` runs in the foreground under the mirror lock, never racing another job.
  '\tautoDetach = false',
  '[fetch]',
  '\twriteCommitGraph = true',
  '',
].join('\n');

/** MIRROR_CONFIG as `git config --list` names its entries. */
export const MIRROR_CONFIG_ENTRIES: readonly (readonly [key: string, value: string])[] = [
  ['core.repositoryformatversion', '0'],
  ['core.filemode', 'true'],
  ['core.bare', 'true'],
  ['core.logallrefupdates', 'false'],
  ['gc.autodetach', 'false'],
  ['fetch.writecommitgraph', 'true'],
];

/**
 * Replaces `<mirror>/config` atomically (a new file renamed over it): a reader never sees half a
 * file, and a planted symbolic link is replaced rather than written through.
 */
export async function writeMirrorConfig(dir: string): Promise<void> {
  const temp = join(dir, `config.autofix-${randomUUID()}`);
  try {
    await writeFile(temp, MIRROR_CONFIG, { flag: 'wx', mode: 0o644 });
    await rename(temp, join(dir, 'config'));
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}
