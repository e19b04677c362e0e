import { parseUdiff } from '../../../src/edits/parse-udiff.js';
import { parseUnifiedDiff } from '../../../src/edits/parse-unified-diff.js';
import { sha256 } from '../../../src/edits/sha256.js';
import { AutofixError } from '../../../src/errors.js';

const FILES: Record<string, string> = {
  'src/a.ts': 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\n',
  'src/b.ts': 'line 1\nline 2\nline 3\n',
  'old.txt': 'bye\n',
};
const readFile = (path: string) => Promise.resolve(FILES[path]);

async function refusal(text: string): Promise<AutofixError> {
  try {
    await parseUdiff(text, readFile);
  } catch (err) {
    expect(err).toBeInstanceOf(AutofixError);
    return err as AutofixError;
  }
  throw new Error('expected a refusal');
}

const A_DIFF =
  '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,3 +1,3 @@\n export const a = 1;\n-export const b = 2;\n+export const b = 20;\n export const c = 3;\n';
const A_AFTER = 'export const a = 1;\nexport const b = 20;\nexport const c = 3;\n';

describe('parseUnifiedDiff', () => {
  it('finds diffs inside markdown fences and prose', () => {
    const text = `Here is the fix:\n\n\`\`\`diff\n${A_DIFF}\`\`\`\n\nThis changes b.\n`;
    const [patch] = parseUnifiedDiff(text);
    expect(patch?.oldPath).toBe('a/src/a.ts');
    expect(patch?.hunks[0]?.lines.map((l) => l.kind + l.text)).toEqual([
      ' export const a = 1;',
      '-export const b = 2;',
      '+export const b = 20;',
      ' export const c = 3;',
    ]);
  });

  it('reads git headers, creation, deletion and the no-newline marker', () => {
    const text =
      'diff --git a/n.txt b/n.txt\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+hi\n\\ No newline at end of file\n' +
      'diff --git a/old.txt b/old.txt\ndeleted file mode 100644\n--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n';
    const [created, deleted] = parseUnifiedDiff(text);
    expect(created).toMatchObject({ isCreate: true, newPath: 'b/n.txt' });
    expect(created?.hunks[0]?.lines[0]).toMatchObject({ kind: '+', text: 'hi', noEol: true });
    expect(deleted).toMatchObject({ isDelete: true, oldPath: 'a/old.txt' });
  });

  it('reads a context line that lost its leading space as context when more hunk lines follow', () => {
    const [patch] = parseUnifiedDiff('--- a/x\n+++ b/x\n@@ @@\nfoo\n-bar\n+baz\nThanks!\n');
    expect(patch?.hunks[0]?.lines.map((l) => l.kind + l.text)).toEqual([' foo', '-bar', '+baz']);
  });

  it('ends a hunk whose counts are too large at the next file header', () => {
    const text =
      '--- a/x\n+++ b/x\n@@ -1,9 +1,9 @@\n a\n-b\n+c\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-d\n+e\n';
    expect(parseUnifiedDiff(text).map((p) => [p.oldPath, p.hunks[0]?.lines.length])).toEqual([
      ['a/x', 3],
      ['a/y', 2],
    ]);
  });

  it('keeps a removed `-- x` and an added `++ y` line inside a hunk', () => {
    const [patch] = parseUnifiedDiff(
      '--- a/q.sql\n+++ b/q.sql\n@@ -1,2 +1,2 @@\n select 1;\n--- old comment\n+++ new note\n',
    );
    expect(patch?.hunks[0]?.lines.map((l) => l.kind + l.text)).toEqual([
      ' select 1;',
      '--- old comment',
      '+++ new note',
    ]);
  });

  it('refuses a hunk without a file header', () => {
    expect(() => parseUnifiedDiff('@@ -1 +1 @@\n-a\n+b\n')).toThrow(/has no file header/);
  });
});

describe('parseUdiff', () => {
  it('applies diffs for several files and records the base hash of each', async () => {
    const b = '--- a/src/b.ts\n+++ b/src/b.ts\n@@ -2 +2 @@\n-line 2\n+line two\n';
    const parsed = await parseUdiff(A_DIFF + b, readFile);
    expect(parsed.changeSet.files).toEqual([
      { path: 'src/a.ts', op: 'write', content: A_AFTER, baseSha256: sha256(FILES['src/a.ts']!) },
      {
        path: 'src/b.ts',
        op: 'write',
        content: 'line 1\nline two\nline 3\n',
        baseSha256: sha256(FILES['src/b.ts']!),
      },
    ]);
    expect(parsed.files[0]?.hunks?.[0]).toMatchObject({ line: 1, match: 'exact' });
  });

  it('works without diff --git lines and without a/ b/ prefixes', async () => {
    const parsed = await parseUdiff(
      A_DIFF.replace('--- a/src/a.ts\n+++ b/src/a.ts', '--- src/a.ts\n+++ src/a.ts'),
      readFile,
    );
    expect(parsed.changeSet.files[0]).toMatchObject({ path: 'src/a.ts', content: A_AFTER });
  });

  it('creates files from /dev/null and deletes files to /dev/null', async () => {
    const text =
      '--- /dev/null\n+++ b/docs/new.md\n@@ -0,0 +1,2 @@\n+# New\n+text\n--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n';
    const parsed = await parseUdiff(text, readFile);
    expect(parsed.changeSet.files).toEqual([
      { path: 'docs/new.md', op: 'write', content: '# New\ntext\n', baseSha256: sha256('') },
      { path: 'old.txt', op: 'delete', baseSha256: sha256('bye\n') },
    ]);
    expect(parsed.files.map((f) => [f.path, f.op, f.created])).toEqual([
      ['docs/new.md', 'write', true],
      ['old.txt', 'delete', false],
    ]);
  });

  it('creates a missing file from a diff that only adds lines, whatever --- says', async () => {
    const parsed = await parseUdiff(
      '--- a/src/c.ts\t2024-05-01 10:00:00\n+++ b/src/c.ts 2024-05-01 10:00:00\n@@ -0,0 +1 @@\n+export {};\n',
      readFile,
    );
    expect(parsed.changeSet.files).toEqual([
      { path: 'src/c.ts', op: 'write', content: 'export {};\n', baseSha256: sha256('') },
    ]);
  });

  it('reports the problems of every file together', async () => {
    const text =
      '--- a/missing.ts\n+++ b/missing.ts\n@@ @@\n-x\n+y\n--- /dev/null\n+++ b/src/b.ts\n@@ @@\n+new\n';
    const err = await refusal(text);
    expect(err.code).toBe('INVALID_DIFF');
    expect(err.message).toContain('2 problems');
    expect(err.message).toContain('missing.ts: no such file');
    expect(err.message).toContain('src/b.ts: the diff creates this file');
  });

  it('refuses an answer with no diff in it', async () => {
    const err = await refusal('I think the bug is in line 3.');
    expect(err.code).toBe('LLM_OUTPUT_INVALID');
    expect(err.message).toContain('No unified diff was found');
  });

  it('refuses ---/+++ lines that name different files without a rename', async () => {
    const err = await refusal(A_DIFF.replace('+++ b/src/a.ts', '+++ b/src/b.ts'));
    expect(err.message).toContain('names two different files');
  });

  it('follows a git rename', async () => {
    const text =
      'diff --git a/src/b.ts b/src/c.ts\nsimilarity index 90%\nrename from src/b.ts\nrename to src/c.ts\n--- a/src/b.ts\n+++ b/src/c.ts\n@@ -1,3 +1,3 @@\n line 1\n-line 2\n+line II\n line 3\n';
    const parsed = await parseUdiff(text, readFile);
    expect(parsed.changeSet.files.map((f) => [f.path, f.op, f.content])).toEqual([
      ['src/b.ts', 'delete', undefined],
      ['src/c.ts', 'write', 'line 1\nline II\nline 3\n'],
    ]);
  });
});

describe('parseUdiff with headers without numbers', () => {
  it.each(['@@', '@@ ... @@', '@@ export const b = 2;'])(
    'applies a fenced diff whose hunk header is `%s`, instead of saying no diff was found',
    async (header) => {
      const text = `\`\`\`diff\n${A_DIFF.replace('@@ -1,3 +1,3 @@', header)}\`\`\`\n`;
      const parsed = await parseUdiff(text, readFile);
      expect(parsed.changeSet.files[0]).toMatchObject({ path: 'src/a.ts', content: A_AFTER });
    },
  );
});
