import { DEFAULT_REPO_CONFIG, parseRepoConfig } from '../../../src/config/repo-config.js';
import { AutofixError } from '../../../src/errors.js';

function problemOf(yaml: string): string {
  try {
    parseRepoConfig(yaml);
  } catch (err) {
    expect(err).toBeInstanceOf(AutofixError);
    return (err as AutofixError).message;
  }
  throw new Error('the config was accepted');
}

describe('plan_approval in the repository config', () => {
  it('is off by default, with auto thresholds MEDIUM and 5 files', () => {
    expect(DEFAULT_REPO_CONFIG.plan_approval).toBe('off');
    expect(DEFAULT_REPO_CONFIG.plan_approval_auto).toEqual({ risk: 'MEDIUM', files: 5 });
  });

  it('reads required, and auto with its thresholds (each optional)', () => {
    expect(parseRepoConfig('plan_approval: required\n').plan_approval).toBe('required');
    const auto = parseRepoConfig('plan_approval: auto\nplan_approval_auto: { risk: HIGH }\n');
    expect(auto.plan_approval).toBe('auto');
    expect(auto.plan_approval_auto).toEqual({ risk: 'HIGH', files: 5 });
    expect(parseRepoConfig('plan_approval_auto:\n  files: 2\n').plan_approval_auto).toEqual({
      risk: 'MEDIUM',
      files: 2,
    });
  });

  it('names a bad mode, a bad risk, a bad file count and an unknown threshold', () => {
    expect(problemOf('plan_approval: yes\n')).toContain(
      '`plan_approval`: must be `off`, `required` or `auto`',
    );
    expect(problemOf('plan_approval_auto: { risk: CRITICAL }\n')).toContain(
      '`plan_approval_auto.risk`: must be LOW, MEDIUM or HIGH',
    );
    expect(problemOf('plan_approval_auto: { files: 0 }\n')).toContain(
      '`plan_approval_auto.files`: must be a whole number of files (at least 1)',
    );
    expect(problemOf('plan_approval_auto: { file: 3 }\n')).toContain(
      '`plan_approval_auto.file`: unknown key; did you mean `files`?',
    );
    expect(problemOf('plan_aproval: required\n')).toContain('did you mean `plan_approval`?');
  });
});
