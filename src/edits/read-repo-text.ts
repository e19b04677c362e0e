import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AutofixError } from '../errors.js';

/**
 * The current text of a repository file, or undefined when there is no regular file there.
 * Binary and non-UTF-8 files are refused: rewriting them as text would corrupt the bytes the
 * change does not touch.
 */
export async function readRepoText(repoDir: string, path: string): Promise<string | undefined> {
  const abs = join(repoDir, path);
  const stat = await lstat(abs).catch(() => undefined);
  if (!stat?.isFile()) return undefined;
  const bytes = await readFile(abs);
  const text = bytes.toString('utf8');
  if (bytes.includes(0) || !Buffer.from(text, 'utf8').equals(bytes))
    throw new AutofixError(
      'INVALID_DIFF',
      `${path} is a binary or non-UTF-8 file; the bot can only change UTF-8 text files. Leave it out of the change.`,
    );
  return text;
}
