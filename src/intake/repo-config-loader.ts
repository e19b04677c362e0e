/**
 * `.github/autofix.yml` from the default branch, validated where it enters (parseRepoConfig) and
 * cached briefly per repository and branch. An invalid file is not an exception here: intake still
 * needs to know which label or command would have triggered, to answer with the bad keys.
 */
import { parse as parseYaml } from 'yaml';
import { DEFAULT_REPO_CONFIG, parseRepoConfig, type RepoConfig } from '../config/repo-config.js';
import { isAutofixError, type AutofixError } from '../errors.js';
import { readRepoFile } from '../github/repo-file.js';
import type { GitHubClient, RepoCoords } from '../github/types.js';
import { createTtlCache } from './ttl-cache.js';

export const CONFIG_PATH = '.github/autofix.yml';

export type LoadedConfig =
  | { ok: true; config: RepoConfig }
  | { ok: false; error: AutofixError; triggerLabel: string; command: string };

export interface RepoConfigLoader {
  load(octokit: GitHubClient, repo: RepoCoords, defaultBranch: string): Promise<LoadedConfig>;
  /** The config this process loaded lately, without asking GitHub (undefined when none). */
  peek(repo: RepoCoords, defaultBranch: string): LoadedConfig | undefined;
}

/** The label and command that start a run, whether the config is valid or not. */
export function triggersOf(loaded: LoadedConfig): { triggerLabel: string; command: string } {
  return loaded.ok
    ? { triggerLabel: loaded.config.trigger_label, command: loaded.config.command }
    : { triggerLabel: loaded.triggerLabel, command: loaded.command };
}

/** The trigger label and command an invalid file meant, when they can still be read. */
function intendedTriggers(text: string): { triggerLabel: string; command: string } {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch {
    raw = undefined;
  }
  const obj = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  return {
    triggerLabel:
      typeof obj.trigger_label === 'string' ? obj.trigger_label : DEFAULT_REPO_CONFIG.trigger_label,
    command: typeof obj.command === 'string' ? obj.command : DEFAULT_REPO_CONFIG.command,
  };
}

export function createRepoConfigLoader(options: { ttlMs?: number } = {}): RepoConfigLoader {
  const cache = createTtlCache<LoadedConfig>({ ttlMs: options.ttlMs ?? 60_000 });
  const keyOf = (repo: RepoCoords, branch: string): string =>
    `${repo.owner}/${repo.repo}@${branch}`;
  return {
    peek: (repo, defaultBranch) => cache.peek(keyOf(repo, defaultBranch)),
    load(octokit, repo, defaultBranch) {
      return cache.get(keyOf(repo, defaultBranch), async () => {
        const text = await readRepoFile(octokit, repo, CONFIG_PATH, defaultBranch);
        try {
          return { ok: true, config: parseRepoConfig(text, CONFIG_PATH) };
        } catch (err) {
          if (!isAutofixError(err)) throw err;
          return { ok: false, error: err, ...intendedTriggers(text ?? '') };
        }
      });
    },
  };
}
