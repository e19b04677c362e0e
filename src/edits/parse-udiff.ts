import type { FileChange } from '../contracts.js';
import { AutofixError, isAutofixError } from '../errors.js';
import { applyUnifiedDiff } from './apply-unified-diff.js';
import { cleanPath } from './clean-path.js';
import { createdFileCut } from './created-file-cut.js';
import { deletedFileCut } from './deleted-file-cut.js';
import type { HunkProblem } from './hunk-problem.js';
import type { AnswerEnding } from './last-hunk-cut.js';
import type { FilePatch, Hunk } from './parse-unified-diff.js';
import { parseUnifiedDiff } from './parse-unified-diff.js';
import { sha256 } from './sha256.js';
import type { AnswerCut, FileReport, ParsedEdits, ReadFile } from './types.js';
import { udiffEnding } from './udiff-ending.js';

const strip = (path: string, prefix: string): string =>
  path.startsWith(prefix) ? path.slice(prefix.length) : path;

/**
 * The file a patch edits. `a/`/`b/` prefixes are dropped when present (and kept when only the
 * unprefixed path exists on disk), so diffs with and without them both work.
 */
async function resolvePaths(
  patch: FilePatch,
  readFile: ReadFile,
): Promise<{ from?: string; to?: string }> {
  const oldRaw = patch.isCreate ? undefined : (patch.oldPath ?? patch.gitPaths?.[0]);
  const newRaw = patch.isDelete ? undefined : (patch.newPath ?? patch.gitPaths?.[1]);
  if (patch.renameFrom !== undefined && patch.renameTo !== undefined)
    return { from: cleanPath(patch.renameFrom), to: cleanPath(patch.renameTo) };
  const olds = oldRaw === undefined ? [] : [strip(oldRaw, 'a/'), oldRaw].map(cleanPath);
  const news = newRaw === undefined ? [] : [strip(newRaw, 'b/'), newRaw].map(cleanPath);
  if (olds.length === 0 || news.length === 0) {
    const path = olds[0] ?? news[0];
    const alt = olds[1] ?? news[1];
    if (path === undefined) return {};
    const exists = patch.isCreate || (await readFile(path)) !== undefined;
    const chosen = !exists && alt !== undefined && (await readFile(alt)) !== undefined ? alt : path;
    return olds.length === 0 ? { to: chosen } : { from: chosen };
  }
  const same = [...olds, ...news].filter(
    (p, i, all) => olds.includes(p) && news.includes(p) && all.indexOf(p) === i,
  );
  for (const path of same)
    if ((await readFile(path)) !== undefined) return { from: path, to: path };
  const fallback = same[0] ?? olds[0];
  return { from: fallback, to: same[0] ?? news[0] };
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

/** The cut reported by a file's refusal: its own, or its last hunk's `cut` problem. */
function cutIn(
  details: unknown,
  path: string | undefined,
  hunks: readonly Hunk[],
): AnswerCut | undefined {
  const d = details as { cut?: AnswerCut; problems?: HunkProblem[] } | undefined;
  if (d?.cut) return d.cut;
  const problem = d?.problems?.find((p) => p.kind === 'cut');
  if (problem?.kind !== 'cut') return undefined;
  const line = hunks[problem.hunk]?.diffLine;
  return {
    ...(path === undefined ? {} : { path }),
    hunk: problem.hunk + 1,
    ...(line === undefined ? {} : { line }),
    why: problem.why,
  };
}

/**
 * udiff format: unified diffs for any number of files, as an LLM writes them, applied to the
 * current file contents by the tolerant engine. File creation (`--- /dev/null`), deletion
 * (`+++ /dev/null`) and git renames are supported. Problems in several files are reported together.
 */
export async function parseUdiff(text: string, readFile: ReadFile): Promise<ParsedEdits> {
  const all = parseUnifiedDiff(text);
  const end = udiffEnding(text, all);
  const patches = all.filter(
    (p) => p.hunks.length > 0 || p.isCreate || p.isDelete || p.renameTo !== undefined || p.binary,
  );
  if (patches.length === 0)
    throw new AutofixError(
      'LLM_OUTPUT_INVALID',
      'No unified diff was found in your answer. For each file send `--- a/<path>`, `+++ b/<path>`, ' +
        'then `@@ … @@` hunks whose lines start with " " (unchanged), "-" (removed) or "+" (added).',
    );
  const problems: string[] = [];
  let cut = end.cut;
  if (cut)
    problems.push(
      `Your answer looks cut off: ${cut.why}. It was probably cut off at the output limit, so nothing was written. Send the rest of the diff: every file and hunk from there on.`,
    );
  const changes: FileChange[] = [];
  const files: FileReport[] = [];
  const seen = new Map<string, FilePatch>();
  const merged: { patch: FilePatch; from?: string; to?: string }[] = [];
  for (const patch of patches) {
    const { from, to } = await resolvePaths(patch, readFile);
    const key = to ?? from ?? '';
    const earlier = seen.get(key);
    if (
      earlier &&
      !patch.isCreate &&
      !patch.isDelete &&
      !earlier.isCreate &&
      !earlier.isDelete &&
      from === to
    ) {
      earlier.hunks.push(...patch.hunks); // the same file diffed twice: one set of hunks
      continue;
    }
    if (earlier) {
      problems.push(
        `${key}: the diff changes this file twice in incompatible ways; send one diff per file.`,
      );
      continue;
    }
    seen.set(key, patch);
    merged.push({
      patch,
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
    });
  }

  for (const { patch, from, to } of merged) {
    const path = to ?? from;
    try {
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
      if (
        from === undefined ||
        (onlyAdded && to === from && (await readFile(from)) === undefined)
      ) {
        // A diff that only adds lines to a file that does not exist creates it, whatever `---` says.
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
        changes.push({
          path: to,
          op: 'write',
          content: newFileContent(to, patch.hunks, end.ending),
          baseSha256: sha256(''),
        });
        files.push({ path: to, op: 'write', created: true });
        continue;
      }
      const before = await readFile(from);
      if (before === undefined)
        throw new AutofixError(
          'INVALID_DIFF',
          `${from}: no such file in the repository. To create it, diff from \`--- /dev/null\`; otherwise check the path.`,
        );
      if (to === undefined) {
        const cut = deletedFileCut(patch.hunks, before, end.ending);
        if (cut)
          throw new AutofixError(
            'INVALID_DIFF',
            `${from}: the deletion looks cut off: ${cut}. Your answer was probably cut off at the output limit, so nothing was written. Send the rest of the diff.`,
            { details: { cut: { path: from, line: patch.diffLine, why: cut } } },
          );
        changes.push({ path: from, op: 'delete', baseSha256: sha256(before) });
        files.push({ path: from, op: 'delete', created: false });
        continue;
      }
      const result =
        patch.hunks.length > 0
          ? applyUnifiedDiff(from, before, patch.hunks, end.ending)
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
    } catch (err) {
      if (!isAutofixError(err) || err.code !== 'INVALID_DIFF') throw err;
      problems.push(err.message);
      cut ??= cutIn(err.details, path, patch.hunks);
    }
  }
  if (problems.length > 0)
    throw new AutofixError(
      'INVALID_DIFF',
      `Your diff was not applied; nothing was written. ${problems.length === 1 ? 'One problem' : `${problems.length} problems`}:\n\n${problems.join('\n\n')}`,
      { details: { problems, ...(cut ? { cut } : {}) } },
    );
  return { changeSet: { files: changes, notes: { user: [], debug: [] } }, files };
}
