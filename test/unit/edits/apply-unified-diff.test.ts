import { applyUnifiedDiff } from '../../../src/edits/apply-unified-diff.js';
import { parseUnifiedDiff } from '../../../src/edits/parse-unified-diff.js';
import { refusal } from '../../helpers/refusal.js';

/** A 40-line file with a few repeated lines, like real code. */
const FILE = [
  "import { readFile } from 'node:fs';",
  '',
  'export function load(path) {',
  '  const text = readFile(path);',
  '  if (text === undefined) {',
  '    return null;',
  '  }',
  '  return JSON.parse(text);',
  '}',
  '',
  'export function save(path, value) {',
  '  const text = JSON.stringify(value);',
  '  if (text.length > 1000) {',
  "    throw new Error('too big');",
  '  }',
  '  writeFile(path, text);',
  '}',
  '',
  'function helper(a, b) {',
  '  return a + b;',
  '}',
  '',
  'export const LIMIT = 1000;',
  '',
].join('\n');

const hunksOf = (diff: string) => parseUnifiedDiff(diff)[0]!.hunks;
const apply = (diff: string, file = FILE) => applyUnifiedDiff('src/store.js', file, hunksOf(diff));

const GOLD = `--- a/src/store.js
+++ b/src/store.js
@@ -11,6 +11,6 @@ export function load(path) {
 export function save(path, value) {
   const text = JSON.stringify(value);
-  if (text.length > 1000) {
+  if (text.length > LIMIT) {
     throw new Error('too big');
   }
   writeFile(path, text);
`;
const EXPECTED = FILE.replace('  if (text.length > 1000) {', '  if (text.length > LIMIT) {');

describe('applyUnifiedDiff', () => {
  it('applies a clean diff and reports where the hunk landed', () => {
    const result = apply(GOLD);
    expect(result.after).toBe(EXPECTED);
    expect(result.hunks).toEqual([
      expect.objectContaining({
        hunk: 1,
        line: 11,
        statedLine: 11,
        offset: 0,
        match: 'exact',
        placedBy: 'only-match',
      }),
    ]);
  });

  it('ignores wrong hunk line numbers', () => {
    const result = apply(GOLD.replace('@@ -11,6 +11,6 @@', '@@ -40,6 +41,6 @@'));
    expect(result.after).toBe(EXPECTED);
    expect(result.hunks[0]).toMatchObject({ line: 11, offset: -29 });
  });

  it('ignores wrong hunk line counts', () => {
    expect(apply(GOLD.replace('@@ -11,6 +11,6 @@', '@@ -11,3 +11,12 @@')).after).toBe(EXPECTED);
  });

  it('accepts bare @@ @@ headers', () => {
    expect(apply(GOLD.replace(/^@@.*$/m, '@@ @@')).after).toBe(EXPECTED);
  });

  it('applies a CRLF diff to an LF file and keeps LF', () => {
    expect(apply(GOLD.replace(/\n/g, '\r\n')).after).toBe(EXPECTED);
  });

  it('applies an LF diff to a CRLF file and keeps CRLF, added lines included', () => {
    const crlf = FILE.replace(/\n/g, '\r\n');
    expect(apply(GOLD, crlf).after).toBe(EXPECTED.replace(/\n/g, '\r\n'));
  });

  it('matches context and removed lines that lost their trailing whitespace, keeping the file lines', () => {
    const file = FILE.replace(
      '  const text = JSON.stringify(value);',
      '  const text = JSON.stringify(value);  ',
    ).replace('  if (text.length > 1000) {', '  if (text.length > 1000) {\t');
    const result = apply(GOLD, file);
    expect(result.after).toContain(
      '  const text = JSON.stringify(value);  \n  if (text.length > LIMIT) {\n',
    );
    expect(result.hunks[0]?.match).toBe('whitespace');
  });

  it('tolerates tabs written for spaces in context lines', () => {
    const drifted = GOLD.replace(
      ' export function save(path, value) {\n   const text',
      ' export function save(path, value) {\n \tconst text',
    ).replace("     throw new Error('too big');", " \t\tthrow new Error('too big');");
    expect(apply(drifted).after).toBe(EXPECTED);
  });

  it('reads a blank line without its leading space as blank context', () => {
    const diff = `--- a/src/store.js
+++ b/src/store.js
@@ -16,6 +16,7 @@
   writeFile(path, text);
 }

+// helpers
 function helper(a, b) {
   return a + b;
`;
    expect(apply(diff).after).toBe(
      FILE.replace('\nfunction helper', '\n// helpers\nfunction helper'),
    );
  });

  it('applies hunks given out of order', () => {
    const diff = `--- a/src/store.js
+++ b/src/store.js
@@ -19,3 +19,3 @@
 function helper(a, b) {
-  return a + b;
+  return a - b;
 }
@@ -4,3 +4,3 @@
   const text = readFile(path);
-  if (text === undefined) {
+  if (text == null) {
     return null;
`;
    const result = apply(diff);
    expect(result.after).toBe(
      FILE.replace('return a + b', 'return a - b').replace('text === undefined', 'text == null'),
    );
    expect(result.hunks.map((h) => h.line)).toEqual([19, 4]);
  });

  it('places a hunk with only one line of context', () => {
    const diff = `--- a/src/store.js
+++ b/src/store.js
@@ -13,3 +13,3 @@
   const text = JSON.stringify(value);
-  if (text.length > 1000) {
+  if (text.length > LIMIT) {
   throw new Error('too big');
`;
    expect(
      apply(diff.replace("   throw new Error('too big');\n", "     throw new Error('too big');\n"))
        .after,
    ).toBe(EXPECTED);
  });

  it('keeps the file’s own line when a context line is quoted slightly wrong', () => {
    const result = apply(
      GOLD.replace(' export function save(path, value) {', ' export function save(path, val) {'),
    );
    expect(result.after).toBe(EXPECTED);
    expect(result.after).toContain('export function save(path, value) {');
    expect(result.hunks[0]?.match).toBe('fuzzy');
  });

  it('keeps a missing final newline when the diff lost its marker', () => {
    const file = 'a\nb\nc';
    const diff = '--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n b\n-c\n+C\n';
    expect(applyUnifiedDiff('x', file, hunksOf(diff)).after).toBe('a\nb\nC');
    const marked =
      '--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n b\n-c\n\\ No newline at end of file\n+C\n\\ No newline at end of file\n';
    expect(applyUnifiedDiff('x', file, hunksOf(marked)).after).toBe('a\nb\nC');
  });

  it('appends after a last line that had no newline', () => {
    const diff = '--- a/x\n+++ b/x\n@@ -2,2 +2,3 @@\n b\n c\n+d\n';
    expect(applyUnifiedDiff('x', 'a\nb\nc', hunksOf(diff)).after).toBe('a\nb\nc\nd');
  });

  it('refuses a hunk whose context matches twice, naming both positions', () => {
    const file = 'x\n}\nfoo();\n}\n\ny\n}\nfoo();\n}\n';
    const diff = '--- a/x.js\n+++ b/x.js\n@@ @@\n }\n-foo();\n+bar();\n }\n';
    const err = refusal(() => applyUnifiedDiff('x.js', file, hunksOf(diff)));
    expect(err.code).toBe('INVALID_DIFF');
    expect(err.message).toContain('x.js: hunk 1');
    expect(err.message).toContain('at lines 2 and 7');
    expect(err.message).toContain('-foo();');
  });

  it('settles equal matches by line numbers the other hunks confirm', () => {
    const file = 'x\n}\nfoo();\n}\n\ny\n}\nfoo();\n}\nunique\nline\n';
    const diff =
      '--- a/x.js\n+++ b/x.js\n@@ -7,3 +7,3 @@\n }\n-foo();\n+bar();\n }\n@@ -10,2 +10,2 @@\n-unique\n+UNIQUE\n line\n';
    const result = applyUnifiedDiff('x.js', file, hunksOf(diff));
    expect(result.after).toBe('x\n}\nfoo();\n}\n\ny\n}\nbar();\n}\nUNIQUE\nline\n');
    expect(result.hunks[0]?.placedBy).toBe('line-number');
  });

  it('refuses a hunk that matches nowhere, quoting its lines and the closest file lines', () => {
    const err = refusal(() =>
      apply(GOLD.replace('-  if (text.length > 1000) {', '-  if (text.size > 1000) {')),
    );
    expect(err.message).toContain('src/store.js: hunk 1');
    expect(err.message).toContain('-  if (text.size > 1000) {');
    expect(err.message).toMatch(/closest region of the file is lines 11-/);
    expect(err.message).toContain('   13 |   if (text.length > 1000) {');
  });

  it('says when a hunk is already applied', () => {
    const err = refusal(() => apply(GOLD, EXPECTED));
    expect(err.message).toContain('looks already applied');
  });

  it('refuses two hunks that change the same lines', () => {
    const diff = `${GOLD}@@ -13,1 +13,1 @@\n-  if (text.length > 1000) {\n+  if (text.length >= 1000) {\n`;
    expect(refusal(() => apply(diff)).message).toContain('overlaps hunk');
  });

  it('places additions with no context only at the start or end of a file', () => {
    expect(
      applyUnifiedDiff('x', 'a\n', hunksOf('--- a/x\n+++ b/x\n@@ -0,0 +1 @@\n+top\n')).after,
    ).toBe('top\na\n');
    expect(
      applyUnifiedDiff('x', 'a\n', hunksOf('--- a/x\n+++ b/x\n@@ -1,0 +2 @@\n+end\n')).after,
    ).toBe('a\nend\n');
    expect(
      refusal(() =>
        applyUnifiedDiff('x', 'a\nb\nc\n', hunksOf('--- a/x\n+++ b/x\n@@ -1,0 +2 @@\n+mid\n')),
      ).message,
    ).toContain('has no unchanged or removed lines');
  });
});
