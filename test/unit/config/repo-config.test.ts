import { DEFAULT_REPO_CONFIG, parseRepoConfig } from '../../../src/config/repo-config.js';
import { AutofixError } from '../../../src/errors.js';

describe('parseRepoConfig', () => {
  it('gives documented defaults for a missing or empty file', () => {
    expect(parseRepoConfig(undefined)).toEqual(DEFAULT_REPO_CONFIG);
    expect(parseRepoConfig('# nothing\n')).toEqual(DEFAULT_REPO_CONFIG);
    expect(DEFAULT_REPO_CONFIG.trigger_label).toBe('autofix');
    expect(DEFAULT_REPO_CONFIG.edit_format).toBe('udiff');
    expect(DEFAULT_REPO_CONFIG.max_repair_attempts).toBe(3);
  });

  it('reads the keys a maintainer sets', () => {
    const c = parseRepoConfig('validate:\n  - npm test\nsandbox: bwrap\nmodels:\n  code: gpt-x\n');
    expect(c.validate).toEqual(['npm test']);
    expect(c.sandbox).toBe('bwrap');
    expect(c.models.code).toBe('gpt-x');
  });

  it('names each bad key, including unknown ones', () => {
    let err: unknown;
    try {
      parseRepoConfig(
        'edit_format: patch\nmax_repair_attempts: -1\nvalidat: [x]\nmodels:\n  coder: y\n',
      );
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AutofixError);
    const e = err as AutofixError;
    expect(e.code).toBe('CONFIG_INVALID');
    expect(e.message).toContain('`edit_format`');
    expect(e.message).toContain('`max_repair_attempts`');
    expect(e.message).toContain('`validat`: unknown key');
    expect(e.message).toContain('`models.coder`: unknown key');
  });

  it('suggests the key a near miss meant, at its own level, and nothing for a far one', () => {
    let err: unknown;
    try {
      parseRepoConfig(
        'validat: [x]\ncode-strategy: tools\nDraft_PRS: true\nmodels:\n  tirage: m\nwhatever: 1\n',
      );
    } catch (e) {
      err = e;
    }
    const problems = ((err as AutofixError).details as { problems: unknown[] }).problems;
    expect(problems).toHaveLength(5);
    expect(problems).toEqual(
      expect.arrayContaining([
        { key: 'validat', message: 'unknown key; did you mean `validate`?' },
        { key: 'code-strategy', message: 'unknown key; did you mean `code_strategy`?' },
        { key: 'Draft_PRS', message: 'unknown key; did you mean `draft_prs`?' },
        { key: 'whatever', message: 'unknown key' },
        { key: 'models.tirage', message: 'unknown key; did you mean `triage`?' },
      ]),
    );
    expect((err as AutofixError).message).toContain(
      '`validat`: unknown key; did you mean `validate`?',
    );
  });

  it('reports broken YAML', () => {
    expect(() => parseRepoConfig('validate: [unclosed')).toThrow(/not valid YAML/);
  });
});
