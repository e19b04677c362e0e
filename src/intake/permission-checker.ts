/**
 * Who may trigger a run (docs/SECURITY.md, rule 2): write, maintain or admin on the repository,
 * asked through the collaborator permission API. An error GitHub may not repeat (5xx, rate limit,
 * the network) is thrown, so admission retries it; any other error means no. Answers are cached
 * briefly (per repository and user) so a burst of deliveries does not become a burst of API calls;
 * a revoked permission therefore takes up to `ttlMs` to apply.
 */
import { getRepoRole, type RepoRole } from '../github/permission.js';
import { classifyError } from '../classify-error.js';
import type { GitHubClient, RepoCoords } from '../github/types.js';
import type { Logger } from '../logger.js';
import { createTtlCache } from './ttl-cache.js';

const TRIGGER_ROLES: ReadonlySet<RepoRole> = new Set(['write', 'maintain', 'admin']);

export interface PermissionChecker {
  allows(octokit: GitHubClient, repo: RepoCoords, login: string, log: Logger): Promise<boolean>;
}

export function createPermissionChecker(options: { ttlMs?: number } = {}): PermissionChecker {
  const cache = createTtlCache<RepoRole>({ ttlMs: options.ttlMs ?? 30_000 });
  return {
    async allows(octokit, repo, login, log) {
      try {
        const role = await cache.get(`${repo.owner}/${repo.repo}:${login}`, () =>
          getRepoRole(octokit, repo, login),
        );
        return TRIGGER_ROLES.has(role);
      } catch (err) {
        if (classifyError(err).transient) throw err;
        log.warn({ err, login }, 'permission check refused: no run');
        return false;
      }
    },
  };
}
