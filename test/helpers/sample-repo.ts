/**
 * A small real repository for pipeline tests: a JS module with a bug, a test script that fails
 * until the bug is fixed, and `.github/autofix.yml` running it as the validation command.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const BUGGY_MATH = `export function add(a, b) {\n  return a - b;\n}\n\nexport function double(x) {\n  return x * 2;\n}\n`;

export const FIX_DIFF = [
  '--- a/src/math.js',
  '+++ b/src/math.js',
  '@@ -1,3 +1,3 @@',
  ' export function add(a, b) {',
  '-  return a - b;',
  '+  return a + b;',
  ' }',
  '',
].join('\n');

export const TRIAGE = {
  risk: 'LOW',
  classification: 'fix',
  affected_files: ['src/math.js'],
  summary: 'add() subtracts instead of adding.',
};

export const PLAN = {
  branch_name: 'fix/add',
  commit_type: 'fix',
  scope: 'math',
  // Written as a sloppy model might: normalised to "return the sum from add()".
  commit_subject: 'Returned the sum from add().',
  plan_steps: [{ id: '1', description: 'Make add() return the sum of its arguments' }],
  file_changes: [{ path: 'src/math.js', operation: 'MODIFY' }],
  validation_commands: ['node test.js', 'rm -rf /'],
};

export const PR_SUMMARY = {
  summary: 'add() returned the difference of its arguments; it now returns their sum.',
};

export interface SampleRepo {
  dir: string;
  root: string;
  git(...args: string[]): string;
  cleanup(): void;
}

export function createSampleRepo(
  options: { config?: string; files?: Record<string, string> } = {},
): SampleRepo {
  const root = mkdtempSync(join(tmpdir(), 'autofix-sample-'));
  const dir = join(root, 'calc');
  const files: Record<string, string> = {
    'package.json': '{ "name": "calc", "type": "module", "private": true }\n',
    'src/math.js': BUGGY_MATH,
    'test.js':
      "import { add, double } from './src/math.js';\n" +
      "if (add(2, 3) !== 5) { console.error('FAIL add(2, 3) = ' + add(2, 3) + ', expected 5'); process.exit(1); }\n" +
      "if (double(4) !== 8) { console.error('FAIL double(4)'); process.exit(1); }\n" +
      "console.log('all tests passed');\n",
    'README.md': '# calc\n\nTiny calculator.\n',
    '.github/autofix.yml': options.config ?? 'validate:\n  - node test.js\n',
    ...options.files,
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  const git = (...args: string[]): string =>
    execFileSync('git', args, {
      cwd: dir,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'Dev',
        GIT_AUTHOR_EMAIL: 'dev@example.com',
        GIT_COMMITTER_NAME: 'Dev',
        GIT_COMMITTER_EMAIL: 'dev@example.com',
      },
    }).trim();
  git('init', '--quiet', '--initial-branch=main');
  git('add', '--all');
  git('commit', '--quiet', '-m', 'initial');
  return { dir, root, git, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
