/**
 * What `setup` created or changed in a worktree (pure), from
 * `git status --porcelain=v1 -z --ignored=traditional --untracked-files=normal`: the untracked
 * and ignored paths (git folds a whole new directory into one entry) are what a cache entry
 * holds; a tracked file that setup changed makes the result uncacheable.
 */
import { isDependencyPath, isLockfile } from './cache-key.js';

export interface SetupProducts {
  /** Untracked or ignored paths, relative, without a trailing slash. */
  products: string[];
  /** Some product is not a dependency directory: the entry depends on the sources. */
  sourceDependent: boolean;
  /**
   * Tracked files setup rewrote (`npm install` updating a committed `package-lock.json`): kept
   * in the entry as copies and written back on restore; one that is not a lockfile keys the
   * entry by the tree.
   */
  trackedEdits: string[];
  /** Tracked paths setup deleted, renamed or added (then nothing is cached). */
  trackedChanges: string[];
}

export function setupProducts(statusZ: string): SetupProducts {
  const fields = statusZ.split('\0');
  const products: string[] = [];
  const trackedChanges: string[] = [];
  const trackedEdits: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field.length < 4) continue;
    const code = field.slice(0, 2);
    const path = field.slice(3).replace(/\/$/, '');
    if (code === '??' || code === '!!') products.push(path);
    else if (/^( M|M |MM)$/.test(code)) trackedEdits.push(path);
    else {
      trackedChanges.push(path);
      // A rename or copy names its source in the next field.
      if (code.includes('R') || code.includes('C')) i++;
    }
  }
  products.sort();
  return {
    products,
    sourceDependent:
      products.some((p) => !isDependencyPath(p)) || trackedEdits.some((p) => !isLockfile(p)),
    trackedEdits: trackedEdits.sort(),
    trackedChanges,
  };
}
