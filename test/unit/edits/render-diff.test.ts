import { renderDiff } from '../../../src/edits/render-diff.js';

describe('renderDiff', () => {
  it('writes a git-style diff for changed, created and deleted files and skips unchanged ones', () => {
    const diff = renderDiff([
      { path: 'a.txt', before: 'one\ntwo\n', after: 'one\n2\n' },
      { path: 'same.txt', before: 'x\n', after: 'x\n' },
      { path: 'new.txt', after: 'hi\n' },
      { path: 'old.txt', before: 'bye\n' },
    ]);
    expect(diff).toBe(
      'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n' +
        'diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,1 @@\n+hi\n' +
        'diff --git a/old.txt b/old.txt\ndeleted file mode 100644\n--- a/old.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-bye\n',
    );
  });

  it('marks a missing final newline', () => {
    expect(renderDiff([{ path: 'a', before: 'x', after: 'y' }])).toContain(
      '-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n',
    );
  });
});
