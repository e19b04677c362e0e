/**
 * What `autofix code-commit` needs from the project directory before any LLM call (seed 000):
 * the supervisor's query and code rollup, a `.gitignore` that keeps `agent-config/` (where keys
 * live) out of git, and the build script. Every problem is a configuration error naming the file.
 */
import { access, constants, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AutofixError } from '../../errors.js';

export const QUERY_FILE = 'agent-config/query.txt';
export const ROLLUP_FILE = 'agent-config/codeRollup.txt';
export const BUILD_SCRIPT = 'build.sh';

export interface ProjectInputs {
  query: string;
  codebase: string;
}

async function readRequired(projectDir: string, file: string, what: string): Promise<string> {
  try {
    return await readFile(join(projectDir, file), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new AutofixError(
      'CONFIG_INVALID',
      code === 'ENOENT'
        ? `${file} is missing: code-commit needs ${what} there (run it from the project directory)`
        : `cannot read ${file}: ${(err as Error).message}`,
      { details: { file } },
    );
  }
}

export async function readProjectInputs(projectDir: string): Promise<ProjectInputs> {
  const query = await readRequired(projectDir, QUERY_FILE, 'the query');
  const codebase = await readRequired(
    projectDir,
    ROLLUP_FILE,
    'the code rollup (made by codeRollup.sh)',
  );
  const gitignore = await readFile(join(projectDir, '.gitignore'), 'utf8').catch(() => undefined);
  const lines = (gitignore ?? '').split(/\r?\n/).map((l) => l.trim());
  if (!lines.includes('/agent-config') && !lines.includes('/agent-config/'))
    throw new AutofixError(
      'CONFIG_INVALID',
      `.gitignore ${gitignore === undefined ? 'is missing' : 'has no `/agent-config` line'}: add the line \`/agent-config\` so API keys kept there are never committed`,
      { details: { file: '.gitignore' } },
    );
  await access(join(projectDir, BUILD_SCRIPT), constants.X_OK).catch(() => {
    throw new AutofixError(
      'CONFIG_INVALID',
      `${BUILD_SCRIPT} is missing or not executable: code-commit builds the project with ./${BUILD_SCRIPT}`,
      { details: { file: BUILD_SCRIPT } },
    );
  });
  return { query, codebase };
}
