/**
 * The reproduce stage's test in the code stage: the agent is told about it, it goes in before the
 * change, the fix may not edit it, and the commit names its command.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Reproduction } from '../../contracts.js';
import { AutofixError } from '../../errors.js';
import { REPRODUCTION_TRAILER } from '../../git/identity.js';
import type { Workspace } from '../../git/workspace.js';
import { openRepoFiles } from '../../repo-files/open-repo-files.js';
import type { CodeResult } from '../code/run-code-agent.js';
import type { IssueInput } from '../ports.js';
import type { StageEnv } from './stage-env.js';

/** The reproduce stage's test, when it wrote one. */
export function reproductionOf(env: Pick<StageEnv, 'outputs'>): Reproduction | undefined {
  return env.outputs.reproduce?.status === 'reproduced' ? env.outputs.reproduce : undefined;
}

/** The code agent is told about the test it must make pass, and never to edit it. */
export function withReproduction(issue: IssueInput, r: Reproduction | undefined): IssueInput {
  if (!r) return issue;
  const note =
    `A test that reproduces the bug was written before the fix: \`${r.path}\` ` +
    `(\`${r.command}\`). It fails on the current code; the fix must make it pass. Do not edit it.`;
  return { ...issue, instructions: issue.instructions ? `${issue.instructions}\n\n${note}` : note };
}

export async function writeReproductionFile(ws: Workspace, r: Reproduction): Promise<void> {
  const abs = join(ws.worktree, r.path);
  await mkdir(dirname(abs), { recursive: true });
  await writeFile(abs, r.content);
}

/** The fix may not pass by editing the test: the file is as the reproduce stage ran it, and committed. */
export async function assertReproductionKept(
  ws: Workspace,
  r: Reproduction,
  code: CodeResult,
): Promise<void> {
  const read = await openRepoFiles(ws.worktree).readText(r.path);
  const now = read.ok ? read.text : undefined;
  if (now !== r.content) {
    throw new AutofixError(
      'VALIDATION_FAILED',
      `the change ${now === undefined ? 'deleted' : 'edited'} the reproduction test \`${r.path}\`; a fix must make it pass as written`,
      { recoverable: false },
    );
  }
  code.changes = [
    ...code.changes.filter((c) => c.path !== r.path),
    { path: r.path, operation: 'created' },
  ];
}

/** A re-run of the verification finds the reproduction's command in the commit's trailers. */
export function reproductionTrailers(
  r: Reproduction | undefined,
): { key: string; value: string }[] {
  return r ? [{ key: REPRODUCTION_TRAILER, value: r.command.replace(/\s+/g, ' ') }] : [];
}
