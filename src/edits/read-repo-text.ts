import { AutofixError } from '../errors.js';
import { openRepoFiles } from '../repo-files/open-repo-files.js';

/**
 * The current text of a repository file, or undefined when nothing is there. Anything there that
 * the reader refuses — a link, a FIFO, a file over the cap, a binary or non-UTF-8 file (rewriting
 * it as text would corrupt the bytes the change does not touch) — is an INVALID_DIFF that says
 * which, so the model can leave it out of the change.
 */
export async function readRepoText(repoDir: string, path: string): Promise<string | undefined> {
  const got = await openRepoFiles(repoDir).readText(path);
  if (got.ok) return got.text;
  if (got.reason === 'missing') return undefined;
  const why =
    got.reason === 'binary'
      ? 'the bot can only change UTF-8 text files'
      : 'the bot reads and changes only regular files inside the repository';
  throw new AutofixError('INVALID_DIFF', `${got.message}; ${why}. Leave it out of the change.`, {
    details: { path, reason: got.reason },
  });
}
