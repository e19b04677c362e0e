/**
 * A `git` first on PATH that runs a shell snippet before handing over to the real git: what the
 * bot's git sees at the very moment it starts. Tests use it to act as an attacker who writes
 * between two of our steps (after a scrub, before the push), or to record the environment git
 * is given. PATH is restored when `fn` settles.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const REAL_GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

export async function withGitOnPath<T>(
  dir: string,
  /** Shell run first; `"$@"` are git's arguments, `$REAL_GIT` the real git. */
  before: string,
  fn: () => Promise<T>,
): Promise<T> {
  await mkdir(dir, { recursive: true });
  const script = `#!/bin/sh\nREAL_GIT='${REAL_GIT}'\n${before}\nexec "$REAL_GIT" "$@"\n`;
  await writeFile(join(dir, 'git'), script);
  await chmod(join(dir, 'git'), 0o755);
  const saved = process.env.PATH;
  process.env.PATH = `${dir}:${saved ?? '/usr/bin:/bin'}`;
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env.PATH;
    else process.env.PATH = saved;
  }
}
