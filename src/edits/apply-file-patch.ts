import type { FileChange } from '../contracts.js';
import { AutofixError } from '../errors.js';
import { applyUnifiedDiff } from './apply-unified-diff.js';
import { createdFileCut } from './created-file-cut.js';
import { deletedFileCut } from './deleted-file-cut.js';
import type { AnswerEnding } from './last-hunk-cut.js';
import type { FilePatch, Hunk } from './parse-unified-diff.js';
import { sha256 } from './sha256.js';
import type { FileReport, ReadFile } from './types.js';

/** One file's patch with the paths it reads from and writes to (undefined: none). */
export interface ResolvedPatch {
  patch: FilePatch;
  from?: string | undefined;
  to?: string | undefined;
}

function newFileContent(path: string, hunks: readonly Hunk[], ending?: AnswerEnding): string {
  const cut = ending ? createdFileCut(hunks, ending) : undefined;
  if (cut)
    throw new AutofixError(
      'INVALID_DIFF',
      `${path}: the new file looks cut off: ${cut}. Your answer was probably cut off at the output limit, so nothing was written. Send this file again complete.`,
      { details: { cut: { path, hunk: hunks.length, line: hunks[0]?.diffLine, why: cut } } },
    );
  const lines = hunks.flatMap((h) => h.lines);
  const stray = lines.find((l) => l.kind !== '+' && !(l.bare && l.text === ''));
  if (stray)
    throw new AutofixError(
      'INVALID_DIFF',
      `${path}: the diff creates this file (\`--- /dev/null\`) but has a line that is not added: ` +
        `"${stray.kind}${stray.text}". In a new file every line starts with "+".`,
    );
  const added = lines.filter((l) => l.kind === '+');
  if (added.length === 0) return '';
  return added.map((l) => l.text).join('\n') + (added[added.length - 1]?.noEol ? '' : '\n');
}

/** The file a creation patch writes, refused when it has no path or the file already exists. */
async function created(
  patch: FilePatch,
  to: string | undefined,
  readFile: ReadFile,
  ending: AnswerEnding | undefined,
): Promise<{ changes: FileChange[]; files: FileReport[] }> {
  if (to === undefined)
    throw new AutofixError(
      'INVALID_DIFF',
      `The diff at line ${patch.diffLine} names no file to create.`,
    );
  const existing = await readFile(to);
  if (existing !== undefined && existing !== '')
    throw new AutofixError(
      'INVALID_DIFF',
      `${to}: the diff creates this file (\`--- /dev/null\`) but it already exists. Send a diff against its current content instead.`,
    );
  return {
    changes: [
      {
        path: to,
        op: 'write',
        content: newFileContent(to, patch.hunks, ending),
        baseSha256: sha256(''),
      },
    ],
    files: [{ path: to, op: 'write', created: true }],
  };
}

/**
 * One file of a udiff answer (the paths resolved, the same file's patches merged): its creation,
 * deletion, rename or hunks applied to the current text, or an INVALID_DIFF refusal that names it.
 * `ending` is how the answer ends: the file that holds its last hunk is checked for a cut.
 */
export async function applyFilePatch(
  { patch, from, to }: ResolvedPatch,
  readFile: ReadFile,
  ending: AnswerEnding | undefined,
): Promise<{ changes: FileChange[]; files: FileReport[] }> {
  const path = to ?? from;
  const changes: FileChange[] = [];
  const files: FileReport[] = [];
  if (path === undefined)
    throw new AutofixError(
      'INVALID_DIFF',
      `The diff at line ${patch.diffLine} names no file; add \`--- a/<path>\` and \`+++ b/<path>\`.`,
    );
  if (patch.binary)
    throw new AutofixError(
      'INVALID_DIFF',
      `${path}: binary patches are not supported; only text files can be changed.`,
    );
  const onlyAdded =
    patch.hunks.length > 0 &&
    patch.hunks.every((h) => h.lines.every((l) => l.kind === '+' || (l.bare && l.text === '')));
  if (from === undefined || (onlyAdded && to === from && (await readFile(from)) === undefined)) {
    // A diff that only adds lines to a file that does not exist creates it, whatever `---` says.
    return created(patch, to, readFile, ending);
  }
  const before = await readFile(from);
  if (before === undefined)
    throw new AutofixError(
      'INVALID_DIFF',
      `${from}: no such file in the repository. To create it, diff from \`--- /dev/null\`; otherwise check the path.`,
    );
  if (to === undefined) {
    const cut = deletedFileCut(patch.hunks, before, ending);
    if (cut)
      throw new AutofixError(
        'INVALID_DIFF',
        `${from}: the deletion looks cut off: ${cut}. Your answer was probably cut off at the output limit, so nothing was written. Send the rest of the diff.`,
        { details: { cut: { path: from, line: patch.diffLine, why: cut } } },
      );
    changes.push({ path: from, op: 'delete', baseSha256: sha256(before) });
    files.push({ path: from, op: 'delete', created: false });
    return { changes, files };
  }
  const result =
    patch.hunks.length > 0
      ? applyUnifiedDiff(from, before, patch.hunks, ending)
      : { after: before, hunks: [] };
  if (to !== from) {
    if (patch.renameTo === undefined)
      throw new AutofixError(
        'INVALID_DIFF',
        `The diff at line ${patch.diffLine} names two different files (\`--- ${from}\`, \`+++ ${to}\`); use the same path on both lines.`,
      );
    if ((await readFile(to)) !== undefined)
      throw new AutofixError(
        'INVALID_DIFF',
        `${to}: the diff renames ${from} to this path, but it already exists.`,
      );
    changes.push({ path: from, op: 'delete', baseSha256: sha256(before) });
    files.push({ path: from, op: 'delete', created: false });
  }
  changes.push({
    path: to,
    op: 'write',
    content: result.after,
    baseSha256: to === from ? sha256(before) : sha256(''),
  });
  files.push({ path: to, op: 'write', created: to !== from, hunks: result.hunks });
  return { changes, files };
}
