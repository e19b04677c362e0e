import { lstat, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { ChangeSet, FileChange } from '../contracts.js';
import { AutofixError } from '../errors.js';
import { openRepoFiles, type RepoFiles } from '../repo-files/open-repo-files.js';
import { sha256 } from './sha256.js';

/** A change checked against the disk, with what is needed to write it and to undo it. */
export interface VerifiedChange {
  change: FileChange;
  /** Absolute path of the file. */
  abs: string;
  /** Current bytes, when the file exists (kept to restore it if a later write fails). */
  before?: Buffer;
  /** Current permission bits, kept on rewrite. */
  mode?: number;
  /** Parent directories to create, outermost first. */
  missingDirs: string[];
}

const EMPTY_SHA = sha256('');

function within(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

async function missingParents(root: string, realRoot: string, abs: string): Promise<string[]> {
  const missing: string[] = [];
  let dir = dirname(abs);
  for (;;) {
    const stat = await lstat(dir).catch(() => undefined);
    if (stat) {
      if (!stat.isDirectory()) throw new Error(`\`${relative(root, dir)}\` is not a directory`);
      const real = await realpath(dir);
      if (real !== realRoot && !real.startsWith(realRoot + sep))
        throw new Error('its directory is outside the repository');
      return missing.reverse();
    }
    if (!within(root, dir)) throw new Error('its directory is outside the repository');
    missing.push(dir);
    dir = dirname(dir);
  }
}

/** The file's bytes as they are, or what the reader refused (a file that is not to be changed). */
async function currentBytes(files: RepoFiles, path: string): Promise<Buffer | string> {
  const got = await files.read(path);
  return got.ok ? got.bytes : `${got.message}; it cannot be changed`;
}

/**
 * The verification pass before anything is written: every path stays inside the repository and
 * names a regular file (or nothing, for a new file), deletions name existing files, and every
 * `baseSha256` still matches the disk. All stale files are reported together as STALE_CONTEXT.
 */
export async function verifyChangeSet(
  repoDir: string,
  changeSet: ChangeSet,
): Promise<VerifiedChange[]> {
  const root = resolve(repoDir);
  const realRoot = await realpath(root);
  const files = openRepoFiles(root);
  const problems: string[] = [];
  const stale: string[] = [];
  const verified: VerifiedChange[] = [];
  const seen = new Set<string>();
  for (const change of changeSet.files) {
    const abs = resolve(root, change.path);
    const name = `\`${change.path}\``;
    if (seen.has(change.path)) {
      problems.push(`${name} is changed twice; send one change per file`);
      continue;
    }
    seen.add(change.path);
    if (!within(root, abs)) {
      problems.push(`${name} is outside the repository`);
      continue;
    }
    const stat = await lstat(abs).catch(() => undefined);
    if (stat && !stat.isFile()) {
      problems.push(
        `${name} is ${stat.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}; it cannot be changed`,
      );
      continue;
    }
    if (change.op === 'delete' && !stat) {
      problems.push(`${name} cannot be deleted: no such file`);
      continue;
    }
    if (change.op === 'write' && typeof change.content !== 'string') {
      problems.push(`${name} has no content to write`);
      continue;
    }
    const read = stat ? await currentBytes(files, change.path) : undefined;
    if (typeof read === 'string') {
      problems.push(read);
      continue;
    }
    const before = read;
    if (change.baseSha256 !== undefined) {
      const actual = before ? sha256(before) : EMPTY_SHA;
      if (actual !== change.baseSha256.toLowerCase())
        stale.push(
          before
            ? `${name} has changed since it was read: its sha256 is now ${actual}, not ${change.baseSha256}`
            : `${name} does not exist, so its base_sha256 must be ${EMPTY_SHA} (sha256 of empty bytes), not ${change.baseSha256}`,
        );
    }
    try {
      const missingDirs = await missingParents(root, realRoot, abs);
      verified.push({
        change,
        abs,
        ...(before ? { before, mode: (stat?.mode ?? 0o644) & 0o7777 } : {}),
        missingDirs,
      });
    } catch (err) {
      problems.push(`${name} cannot be written: ${(err as Error).message}`);
    }
  }
  if (stale.length > 0)
    throw new AutofixError(
      'STALE_CONTEXT',
      `Nothing was written: ${stale.length === 1 ? 'a file' : `${stale.length} files`} changed since the content you edited was read.\n` +
        `${stale.map((s) => `- ${s}`).join('\n')}\nBase your change on the current content of these files and send it again.`,
      { details: { stale } },
    );
  if (problems.length > 0)
    throw new AutofixError(
      'INVALID_DIFF',
      `Nothing was written:\n${problems.map((p) => `- ${p}`).join('\n')}`,
      { details: { problems } },
    );
  return verified;
}
