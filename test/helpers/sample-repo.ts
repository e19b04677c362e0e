/**
 * A small real repository for pipeline tests: a JS module with a bug, a test script that fails
 * until the bug is fixed, and `.github/autofix.yml` running it as the validation command.
 */
import { createRepo, type TestRepo } from './repo-builder.js';

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

export type SampleRepo = TestRepo;

/** The calc repository, committed on `main` in `<root>/calc` of a fresh temporary folder. */
export function createSampleRepo(
  options: { config?: string; files?: Record<string, string> } = {},
): SampleRepo {
  return createRepo({
    prefix: 'autofix-sample-',
    name: 'calc',
    files: {
      'package.json': '{ "name": "calc", "type": "module", "private": true }\n',
      'src/math.js': BUGGY_MATH,
      'test.js':
        "import { add, double } from './src/math.js';\n" +
        "if (add(2, 3) !== 5) { console.error('FAIL add(2, 3) = ' + add(2, 3) + ', expected 5'); process.exit(1); }\n" +
        "if (double(4) !== 8) { console.error('FAIL double(4)'); process.exit(1); }\n" +
        "console.log('all tests passed');\n",
      'README.md': '# calc\n\nTiny calculator.\n',
      '.github/autofix.yml': options.config ?? 'reproduce: off\nvalidate:\n  - node test.js\n',
      ...options.files,
    },
  });
}
