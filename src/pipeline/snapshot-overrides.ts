import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { overridePath, type OverrideReader } from '../llm/load-agent.js';

/** Reads `.github/autofix/agents/**` once, at the base commit, before any branch is checked out. */
export async function snapshotOverrides(worktree: string): Promise<OverrideReader> {
  const dir = join(worktree, '.github', 'autofix', 'agents');
  const files = new Map<string, string>();
  const walk = async (sub: string): Promise<void> => {
    const entries = await readdir(join(dir, sub), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const rel = sub ? `${sub}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(rel);
      else if (e.isFile() && e.name.endsWith('.md'))
        files.set(overridePath(rel.replace(/\.md$/, '')), await readFile(join(dir, rel), 'utf8'));
    }
  };
  await walk('');
  return (path) => files.get(path);
}
