/**
 * A bench instance's repository at a commit, in a work directory of its own, with the index of
 * that commit and HEAD detached at it (so the map lists what git tracks and the history ends where
 * it would in a user's checkout). Written from the
 * snapshot's objects with `cat-file --batch`, not `git checkout`: snapshots lack blobs of 4 MiB
 * and more, and checkout refuses a tree with a missing blob. Such files are left out (the map
 * would skip them as too large anyway). The snapshot itself is never written to.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeTree } from './write-tree.js';

export interface CheckoutOptions {
  /** Where the snapshots are: `<mirrors>/<owner>+<name>/repo`. */
  mirrors: string;
  workdir: string;
  /** One checkout per commit, kept and reused (complete once its marker is written). */
  keep: boolean;
}

const git = (args: string[]): string =>
  execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

export function checkoutAt(repo: string, commit: string, options: CheckoutOptions): string {
  const [owner, name] = repo.split('/');
  const mirror = join(options.mirrors, `${owner}+${name}`, 'repo');
  const dir = join(options.workdir, `${owner}+${name}`, ...(options.keep ? [commit] : []));
  // A kept tree is complete once its marker is written (a run killed while writing starts over).
  const complete = join(dir, '.git', 'autofix-bench-tree');
  // HEAD at the commit, as in a user's checkout: the history the ranking reads
  // (`recent-changes.ts`) ends there, never with the fix or what came after it.
  const detach = (): void => {
    git(['-C', dir, 'update-ref', '--no-deref', 'HEAD', commit]);
  };
  if (options.keep && existsSync(complete)) {
    detach();
    return dir;
  }
  if (!existsSync(join(dir, '.git'))) {
    if (!existsSync(mirror)) throw new Error(`no snapshot of ${repo} at ${mirror} (see README)`);
    git(['clone', '--quiet', '--shared', '--no-checkout', mirror, dir]);
  }
  for (const entry of readdirSync(dir))
    if (entry !== '.git') rmSync(join(dir, entry), { recursive: true, force: true });
  detach();
  git(['-C', dir, 'read-tree', commit]);
  writeTree(dir, commit, dir);
  if (options.keep) writeFileSync(complete, `${commit}\n`);
  return dir;
}
