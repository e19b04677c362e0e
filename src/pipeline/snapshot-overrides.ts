import { overridePath, type OverrideReader } from '../llm/load-agent.js';
import { openRepoFiles } from '../repo-files/open-repo-files.js';

const OVERRIDES_DIR = '.github/autofix/agents';
/** An agent file is a page of instructions; anything larger is not one. */
const MAX_OVERRIDE_BYTES = 64 * 1024;

/**
 * Reads `.github/autofix/agents/**` once, at the base commit, before any branch is checked out.
 * Only regular files of the repository's own: a linked directory or file is not followed.
 */
export async function snapshotOverrides(worktree: string): Promise<OverrideReader> {
  const repo = openRepoFiles(worktree);
  const files = new Map<string, string>();
  const walk = async (sub: string): Promise<void> => {
    const dir = sub ? `${OVERRIDES_DIR}/${sub}` : OVERRIDES_DIR;
    const entries = await repo.list(dir);
    if (!Array.isArray(entries)) return;
    for (const e of entries) {
      const rel = sub ? `${sub}/${e.name}` : e.name;
      if (e.kind === 'directory') await walk(rel);
      else if (e.kind === 'file' && e.name.endsWith('.md')) {
        const read = await repo.readText(`${OVERRIDES_DIR}/${rel}`, {
          maxBytes: MAX_OVERRIDE_BYTES,
        });
        if (read.ok) files.set(overridePath(rel.replace(/\.md$/, '')), read.text);
      }
    }
  };
  await walk('');
  return (path) => files.get(path);
}
