/** The files one commit range changes, as the pipeline reports them (created, modified, deleted). */
import { runGit } from './run-git.js';
import type { Workspace } from './workspace.js';

export type FileOperation = 'created' | 'modified' | 'deleted';

const OPERATIONS: Record<string, FileOperation> = { A: 'created', D: 'deleted' };

/** `git diff --name-status from to` in the job's mirror (renames as delete + create). */
export async function changedFiles(
  ws: Pick<Workspace, 'mirrorDir'>,
  from: string,
  to: string,
): Promise<{ path: string; operation: FileOperation }[]> {
  const status = await runGit(['diff', '--name-status', '--no-renames', '-z', from, to], {
    cwd: ws.mirrorDir,
  });
  const fields = status.stdout.split('\0').filter(Boolean);
  const changes: { path: string; operation: FileOperation }[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    changes.push({ path: fields[i + 1]!, operation: OPERATIONS[fields[i]!] ?? 'modified' });
  }
  return changes;
}
