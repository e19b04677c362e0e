/**
 * What `autofix code-commit` needs from the project directory before any LLM call:
 * the supervisor's query and code rollup, a `.gitignore` that keeps `agent-config/` (where keys
 * live) out of git, and the build script. Every problem is a configuration error naming the file.
 */
import { access, constants } from 'node:fs/promises';
import { join } from 'node:path';
import { AutofixError } from '../../../errors.js';
import { openRepoFiles, type RepoFiles } from '../../../repo-files/open-repo-files.js';

export const QUERY_FILE = 'agent-config/query.txt';
export const ROLLUP_FILE = 'agent-config/codeRollup.txt';
export const BUILD_SCRIPT = 'build.sh';

export interface ProjectInputs {
  query: string;
  codebase: string;
}

/** The rollup is the whole codebase as text: a large project's runs to megabytes. */
const MAX_INPUT_BYTES = 64 * 1024 * 1024;

async function readRequired(project: RepoFiles, file: string, what: string): Promise<string> {
  const got = await project.readText(file, { maxBytes: MAX_INPUT_BYTES });
  if (got.ok) return got.text;
  throw new AutofixError(
    'CONFIG_INVALID',
    got.reason === 'missing'
      ? `${file} is missing: code-commit needs ${what} there (run it from the project directory)`
      : `cannot read ${file}: ${got.message}`,
    { details: { file } },
  );
}

export async function readProjectInputs(projectDir: string): Promise<ProjectInputs> {
  const project = openRepoFiles(projectDir);
  const query = await readRequired(project, QUERY_FILE, 'the query');
  const codebase = await readRequired(
    project,
    ROLLUP_FILE,
    'the code rollup (made by codeRollup.sh)',
  );
  const ignoreFile = await project.readText('.gitignore');
  const gitignore = ignoreFile.ok ? ignoreFile.text : undefined;
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
