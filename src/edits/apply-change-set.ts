import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, rmdir, unlink } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import type { ChangeSet } from '../contracts.js';
import { AutofixError } from '../errors.js';
import type { VerifiedChange } from './verify-change-set.js';
import { verifyChangeSet } from './verify-change-set.js';

/** The filesystem calls the writer makes; tests replace one to fail midway. */
export interface WriteIo {
  /** Creates `path` (must not exist) with `data`, flushed to disk. */
  writeNew(path: string, data: string | Buffer, mode?: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  mkdir(path: string): Promise<void>;
  rmdir(path: string): Promise<void>;
}

export const NODE_WRITE_IO: WriteIo = {
  async writeNew(path, data, mode) {
    const handle = await open(path, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.sync(); // the bytes are on disk before the rename makes them visible
    } finally {
      await handle.close();
    }
    if (mode !== undefined) await chmod(path, mode); // open() honours the umask; keep the original bits
  },
  rename: (from, to) => rename(from, to),
  unlink: (path) => unlink(path),
  mkdir: async (path) => {
    await mkdir(path);
  },
  rmdir: (path) => rmdir(path),
};

function tempPathFor(abs: string): string {
  return join(dirname(abs), `.${basename(abs)}.autofix-${randomBytes(6).toString('hex')}.tmp`);
}

/** Puts back what was there before: rewritten and deleted files, created files and directories. */
async function restore(
  io: WriteIo,
  done: VerifiedChange[],
  temps: string[],
  dirs: string[],
): Promise<string[]> {
  const failures: string[] = [];
  const attempt = async (what: string, fn: () => Promise<void>): Promise<void> => {
    await fn().catch((err: unknown) => failures.push(`${what}: ${(err as Error).message}`));
  };
  for (const temp of temps) await attempt(temp, () => io.unlink(temp).catch(() => undefined));
  for (const v of [...done].reverse()) {
    if (v.before) {
      const before = v.before;
      const temp = tempPathFor(v.abs);
      await attempt(v.change.path, async () => {
        await io.writeNew(temp, before, v.mode);
        await io.rename(temp, v.abs);
      });
    } else {
      await attempt(v.change.path, () => io.unlink(v.abs));
    }
  }
  for (const dir of [...dirs].reverse())
    await attempt(dir, () => io.rmdir(dir).catch(() => undefined));
  return failures;
}

/**
 * Writes a ChangeSet all or nothing: verify every change first (paths, file types, base hashes);
 * then each new content goes to a temp file in the target's own directory, is fsynced, and is
 * renamed over the target; deletions come last. If any step fails, everything already written is
 * restored and the error says so. Parent directories are created only inside the repository.
 */
export async function applyChangeSet(
  repoDir: string,
  changeSet: ChangeSet,
  options: { io?: Partial<WriteIo> } = {},
): Promise<void> {
  const io: WriteIo = { ...NODE_WRITE_IO, ...options.io };
  const verified = await verifyChangeSet(repoDir, changeSet);
  const writes = verified.filter((v) => v.change.op === 'write');
  const deletes = verified.filter((v) => v.change.op === 'delete');
  const temps = new Map<VerifiedChange, string>();
  const createdDirs: string[] = [];
  const done: VerifiedChange[] = [];
  let step = '';
  try {
    for (const v of writes) {
      for (const dir of v.missingDirs) {
        if (createdDirs.includes(dir)) continue;
        step = `creating directory ${relative(repoDir, dir)}`;
        await io.mkdir(dir);
        createdDirs.push(dir);
      }
      const temp = tempPathFor(v.abs);
      step = `writing ${v.change.path}`;
      await io.writeNew(temp, v.change.content ?? '', v.mode);
      temps.set(v, temp);
    }
    for (const v of writes) {
      step = `replacing ${v.change.path}`;
      await io.rename(temps.get(v) ?? '', v.abs);
      temps.delete(v);
      done.push(v);
    }
    for (const v of deletes) {
      step = `deleting ${v.change.path}`;
      await io.unlink(v.abs);
      done.push(v);
    }
  } catch (err) {
    const failures = await restore(io, done, [...temps.values()], createdDirs);
    const outcome =
      failures.length === 0
        ? 'every file was restored to its previous content'
        : `restoring also failed for: ${failures.join('; ')}`;
    throw new AutofixError(
      'INTERNAL',
      `Writing the change failed while ${step} (${(err as Error).message}); ${outcome}.`,
      {
        details: { step, restoreFailures: failures },
        cause: err,
      },
    );
  }
}
