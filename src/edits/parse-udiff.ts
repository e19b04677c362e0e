import type { FileChange } from '../contracts.js';
import { AutofixError, isAutofixError } from '../errors.js';
import { applyFilePatch } from './apply-file-patch.js';
import type { ResolvedPatch } from './apply-file-patch.js';
import { cleanPath } from './clean-path.js';
import type { HunkProblem } from './hunk-problem.js';
import type { FilePatch, Hunk } from './parse-unified-diff.js';
import { parseUnifiedDiff } from './parse-unified-diff.js';
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
 * Each file's patch with its resolved paths; the same file diffed twice becomes one set of
 * hunks. A file changed twice in ways that cannot be merged (created and edited…) is a problem.
 */
async function mergePatches(
  patches: readonly FilePatch[],
  readFile: ReadFile,
  problems: string[],
): Promise<ResolvedPatch[]> {
  const seen = new Map<string, FilePatch>();
  const merged: ResolvedPatch[] = [];
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

  return merged;
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
  const merged = await mergePatches(patches, readFile, problems);

  for (const { patch, from, to } of merged) {
    const path = to ?? from;
    try {
      const done = await applyFilePatch({ patch, from, to }, readFile, end.ending);
      changes.push(...done.changes);
      files.push(...done.files);
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
