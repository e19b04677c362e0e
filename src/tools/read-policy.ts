/**
 * Which repository paths the model's tools may read, on top of the reader's own rules (a regular
 * file inside the worktree, no link, no special file, within a cap): only what git tracks or this
 * run created — nothing git ignores (dependencies, build output, a `setup`'s leftovers) — and
 * never an environment file (`.env`, `.env.local`…), which holds secrets even when tracked.
 */
const ENV_FILE = /(^|\/)\.env(\.[^/]*)?$/i;

export function toolMayRead(path: string, readable: ReadonlySet<string>): string | undefined {
  if (ENV_FILE.test(path)) return `\`${path}\` is an environment file; tools never read those`;
  if (!readable.has(path))
    return `\`${path}\` is not a file of the repository (tracked by git, or created by this run)`;
  return undefined;
}
