import { applyEdits } from '../../../src/edits/index.js';
import { AutofixError } from '../../../src/errors.js';
import { checkIgnore } from '../../../src/git/check-ignore.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo, removeTempDirs, snapshot } from './temp-repo.js';

afterEach(removeTempDirs);

const diffFor = (path: string, from: string, to: string): string =>
  `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-${from}\n+${to}\n`;

async function refusal(promise: Promise<unknown>): Promise<AutofixError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AutofixError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('applyEdits with several answers and a plan scope', () => {
  it('applies one answer per planned file as one change', async () => {
    const repoDir = makeRepo({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    const result = await applyEdits({
      repoDir,
      format: 'udiff',
      text: [diffFor('a.txt', 'one', 'ONE'), diffFor('b.txt', 'two', 'TWO')],
      scope: ['a.txt', 'b.txt'],
      isIgnored: (p) => checkIgnore(repoDir, p),
    });
    expect(result.applied).toBe(true);
    expect(readFileSync(join(repoDir, 'a.txt'), 'utf8')).toBe('ONE\n');
    expect(readFileSync(join(repoDir, 'b.txt'), 'utf8')).toBe('TWO\n');
  });

  it('refuses a file outside the plan as WRITE_SCOPE_VIOLATION and writes nothing', async () => {
    const repoDir = makeRepo({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    const before = snapshot(repoDir);
    const err = await refusal(
      applyEdits({
        repoDir,
        format: 'udiff',
        text: [diffFor('a.txt', 'one', 'ONE'), diffFor('b.txt', 'two', 'TWO')],
        scope: ['a.txt'],
        isIgnored: (p) => checkIgnore(repoDir, p),
      }),
    );
    expect(err.code).toBe('WRITE_SCOPE_VIOLATION');
    expect(err.message).toContain('`b.txt`');
    expect(err.message).toContain('The plan allows only: `a.txt`');
    expect(snapshot(repoDir)).toEqual(before);
  });

  it('refuses two answers that change the same file', async () => {
    const repoDir = makeRepo({ 'a.txt': 'one\n' });
    const before = snapshot(repoDir);
    const err = await refusal(
      applyEdits({
        repoDir,
        format: 'udiff',
        text: [diffFor('a.txt', 'one', 'ONE'), diffFor('a.txt', 'one', 'uno')],
        isIgnored: (p) => checkIgnore(repoDir, p),
      }),
    );
    expect(err.code).toBe('LLM_OUTPUT_INVALID');
    expect(err.message).toContain('Answers 1 and 2 both change `a.txt`');
    expect(snapshot(repoDir)).toEqual(before);
  });
});
