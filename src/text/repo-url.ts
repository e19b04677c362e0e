/**
 * Whether a URL points into the run's own repository on its own GitHub host — the only links
 * LLM-written text may keep live. Anything that cannot be read unambiguously (relative links,
 * escapes, `..`, credentials, other schemes) is not.
 */
export interface RepoContext {
  owner?: string;
  repo?: string;
  /** `github.com`, or the GHE host (with its port, if any). */
  githubHost?: string;
}

const PLAIN_URL = /^https?:\/\/[^\s<>\\"'`&]+$/i;

export function isRepoUrl(raw: string, context: RepoContext): boolean {
  const { owner, repo, githubHost } = context;
  if (!owner || !repo || !githubHost) return false;
  if (!PLAIN_URL.test(raw) || /\.\.|%2e/i.test(raw)) return false;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.host.toLowerCase() !== githubHost.toLowerCase()) return false;
  const [, urlOwner, urlRepo] = url.pathname.split('/');
  return (
    urlOwner?.toLowerCase() === owner.toLowerCase() && urlRepo?.toLowerCase() === repo.toLowerCase()
  );
}

/**
 * The GitHub host of a repository (github.com or the Enterprise host), from its clone URL: links
 * to the repository there stay live in text the LLM wrote. Undefined for a local path.
 */
export function cloneUrlHost(cloneUrl: string): string | undefined {
  if (!URL.canParse(cloneUrl)) return undefined;
  const url = new URL(cloneUrl);
  return /^https?:$/.test(url.protocol) ? url.host : undefined;
}
