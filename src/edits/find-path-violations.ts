import { lstat, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { checkPathSyntax } from './check-path-syntax.js';
import { matchPathPattern } from './match-path-pattern.js';
import type { PathPolicy } from './path-policy.js';

/** Port to `git check-ignore`: which of these repository paths git ignores. */
export type IsIgnored = (paths: readonly string[]) => Promise<Set<string>>;

export interface PathViolation {
  path: string;
  /** outside: leaves the repository; protected/ignored: off limits; not-allowed: outside allowed_paths. */
  kind: 'outside' | 'symlink' | 'protected' | 'ignored' | 'not-allowed';
  reason: string;
}

function inside(root: string, target: string): boolean {
  return target === root || target.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The first symlink on the way to `path`, described, or undefined when there is none. */
async function symlinkOnPath(root: string, path: string): Promise<PathViolation | undefined> {
  const segments = path.split('/');
  for (let i = 1; i <= segments.length; i++) {
    const prefix = segments.slice(0, i).join('/');
    const stat = await lstat(join(root, prefix)).catch(() => undefined);
    if (!stat) return undefined; // the rest does not exist yet, so it cannot be a link
    if (!stat.isSymbolicLink()) continue;
    const target = await realpath(join(root, prefix)).catch(() => undefined);
    if (target === undefined || !inside(root, target))
      return {
        path,
        kind: 'outside',
        reason: `goes through the symbolic link \`${prefix}\`, which points outside the repository`,
      };
    return {
      path,
      kind: 'symlink',
      reason:
        `goes through the symbolic link \`${prefix}\` (→ \`${relative(root, target)}\`); ` +
        'change the real path instead',
    };
  }
  return undefined;
}

/**
 * Every way each path breaks the policy (docs/SECURITY.md, rule 1), one violation per path at most:
 * bad syntax, escape through a symlink, protected pattern, ignored by git, outside allowed_paths.
 */
export async function findPathViolations(
  paths: readonly string[],
  policy: PathPolicy,
  repo: { repoDir: string; isIgnored: IsIgnored },
): Promise<PathViolation[]> {
  const root = await realpath(repo.repoDir);
  const found = new Map<string, PathViolation>();
  const candidates: string[] = [];
  for (const path of new Set(paths)) {
    const syntax = checkPathSyntax(path);
    if (syntax) {
      found.set(path, { path, kind: 'outside', reason: syntax });
      continue;
    }
    const link = await symlinkOnPath(root, path);
    if (link) {
      found.set(path, link);
      continue;
    }
    const pattern = policy.protectedPaths.find((p) => matchPathPattern(path, p, true));
    if (pattern !== undefined) {
      found.set(path, {
        path,
        kind: 'protected',
        reason: `is protected (matches \`${pattern}\`); the bot may not change it`,
      });
      continue;
    }
    if (
      policy.allowedPaths.length > 0 &&
      !policy.allowedPaths.some((p) => matchPathPattern(path, p, false))
    ) {
      found.set(path, {
        path,
        kind: 'not-allowed',
        reason: `is outside the allowed paths (${policy.allowedPaths.map((p) => `\`${p}\``).join(', ')})`,
      });
      continue;
    }
    candidates.push(path);
  }
  if (policy.protectIgnored && candidates.length > 0) {
    const ignored = await repo.isIgnored(candidates);
    for (const path of candidates)
      if (ignored.has(path))
        found.set(path, {
          path,
          kind: 'ignored',
          reason: 'is ignored by git (.gitignore); the bot may not change it',
        });
  }
  return paths.flatMap((p) => found.get(p) ?? []).filter((v, i, all) => all.indexOf(v) === i);
}
