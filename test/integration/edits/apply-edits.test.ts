import { chmodSync, existsSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyEdits } from '../../../src/edits/apply-edits.js';
import type { ApplyEditsOptions } from '../../../src/edits/apply-edits.js';
import { pathPolicy } from '../../../src/edits/path-policy.js';
import { sha256 } from '../../../src/edits/sha256.js';
import { AutofixError } from '../../../src/errors.js';
import { gitApplyCheck } from '../../../src/git/apply-check.js';
import { checkIgnore } from '../../../src/git/check-ignore.js';
import { makeRepo, read, removeTempDirs, snapshot, tempDir } from './temp-repo.js';

const FILES = {
  'src/app.ts': 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\n',
  'src/util.ts': 'export function id(x) {\n  return x;\n}\n',
  '.gitignore': 'dist/\n*.log\n',
  '.env': 'SECRET=hunter2\n',
  'package-lock.json': '{}\n',
};

afterEach(removeTempDirs);

const run = (
  repoDir: string,
  format: ApplyEditsOptions['format'],
  text: string,
  extra: Partial<ApplyEditsOptions> = {},
) =>
  applyEdits({
    repoDir,
    format,
    text,
    isIgnored: (paths) => checkIgnore(repoDir, paths),
    checkDiff: gitApplyCheck,
    ...extra,
  });

async function refusal(promise: Promise<unknown>): Promise<AutofixError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(AutofixError);
    return err as AutofixError;
  }
  throw new Error('expected a refusal');
}

const block = (path: string, content = 'changed\n') => `^^^${path}\n${content}^^^end\n`;

describe('applyEdits', () => {
  it('applies a udiff, creating parent directories, and returns the clean diff and hunk report', async () => {
    const repo = makeRepo(FILES);
    const text =
      'Fix:\n```diff\n--- src/app.ts\n+++ src/app.ts\n@@ -10,3 +10,3 @@\n export const a = 1;\n-export const b = 2;\n+export const b = 20;\n export const c = 3;\n```\n' +
      '```diff\n--- /dev/null\n+++ b/src/lib/deep/new.ts\n@@ -0,0 +1 @@\n+export {};\n```\n';
    const result = await run(repo, 'udiff', text);
    expect(result.applied).toBe(true);
    expect(read(repo, 'src/app.ts')).toBe(
      'export const a = 1;\nexport const b = 20;\nexport const c = 3;\n',
    );
    expect(read(repo, 'src/lib/deep/new.ts')).toBe('export {};\n');
    expect(result.diff).toContain(
      'diff --git a/src/app.ts b/src/app.ts\n--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1,3 +1,3 @@\n',
    );
    expect(result.diff).toContain('new file mode 100644\n--- /dev/null\n+++ b/src/lib/deep/new.ts');
    expect(result.files).toEqual([
      expect.objectContaining({
        path: 'src/app.ts',
        created: false,
        hunks: [expect.objectContaining({ line: 1, statedLine: 10, offset: -9 })],
      }),
      expect.objectContaining({ path: 'src/lib/deep/new.ts', created: true }),
    ]);
  });

  it('writes nothing in a dry run but still verifies and renders the diff', async () => {
    const repo = makeRepo(FILES);
    const before = snapshot(repo);
    const result = await run(repo, 'fenced-files', block('src/app.ts'), { dryRun: true });
    expect(result.applied).toBe(false);
    expect(result.diff).toContain('+changed');
    expect(snapshot(repo)).toEqual(before);
  });

  it('keeps the permission bits of a rewritten file', async () => {
    const repo = makeRepo({ 'run.sh': '#!/bin/sh\necho hi\n' });
    chmodSync(join(repo, 'run.sh'), 0o755);
    await run(repo, 'fenced-files', block('run.sh', '#!/bin/sh\necho bye\n'));
    expect(statSync(join(repo, 'run.sh')).mode & 0o777).toBe(0o755);
  });

  describe('refuses hostile paths, writing nothing', () => {
    const cases: [string, string, string][] = [
      ['../x', 'WRITE_SCOPE_VIOLATION', 'contains `..`'],
      ['/etc/passwd', 'WRITE_SCOPE_VIOLATION', 'is absolute'],
      ['a/../../x', 'WRITE_SCOPE_VIOLATION', 'contains `..`'],
      ['.git/config', 'PROTECTED_PATH', 'is protected (matches `.git/**`)'],
      [
        '.github/workflows/ci.yml',
        'PROTECTED_PATH',
        'is protected (matches `.github/workflows/**`)',
      ],
      [
        'escape/passwd',
        'WRITE_SCOPE_VIOLATION',
        'symbolic link `escape`, which points outside the repository',
      ],
      ['src/a\u0000b.ts', 'WRITE_SCOPE_VIOLATION', 'contains a NUL byte'],
      ['debug.log', 'PROTECTED_PATH', 'is ignored by git'],
      ['dist/index.js', 'PROTECTED_PATH', 'is ignored by git'],
      ['package-lock.json', 'PROTECTED_PATH', 'is protected'],
      ['.env', 'PROTECTED_PATH', 'is protected (matches `**/.env*`)'],
      ['keys/id_rsa.pem', 'PROTECTED_PATH', 'is protected (matches `**/*.pem`)'],
      ['.github/autofix.yml', 'PROTECTED_PATH', 'is protected (matches `.github/autofix.yml`)'],
      [
        '.github/autofix/agents/code-agent.md',
        'PROTECTED_PATH',
        'is protected (matches `.github/autofix/**`)',
      ],
    ];
    it.each(cases)('%j → %s, even next to an allowed file', async (path, code, reason) => {
      const repo = makeRepo(FILES);
      symlinkSync(tempDir(), join(repo, 'escape'));
      const before = snapshot(repo);
      const err = await refusal(run(repo, 'fenced-files', block('src/app.ts') + block(path)));
      expect(err.code).toBe(code);
      expect(err.message).toContain(JSON.stringify(path).slice(1, -1));
      expect(err.message).toContain(reason);
      expect(err.message).toContain('nothing was written');
      expect(snapshot(repo)).toEqual(before);
    });

    it('names every offending path in one refusal', async () => {
      const repo = makeRepo(FILES);
      const err = await refusal(
        run(repo, 'fenced-files', block('.env') + block('src/ok.ts') + block('../up.txt')),
      );
      expect(err.code).toBe('PROTECTED_PATH');
      expect(err.message).toContain('2 paths that are not allowed');
      expect(
        (err.details as { violations: { path: string }[] }).violations.map((v) => v.path),
      ).toEqual(['.env', '../up.txt']);
    });

    it('never quotes a protected file back: a udiff against .env is a policy refusal', async () => {
      const repo = makeRepo(FILES);
      const err = await refusal(
        run(repo, 'udiff', '--- a/.env\n+++ b/.env\n@@ @@\n-SECRET=x\n+SECRET=y\n'),
      );
      expect(err.code).toBe('PROTECTED_PATH');
      expect(err.message).not.toContain('hunter2');
    });

    it('refuses writing through a symlink that stays inside the repository', async () => {
      const repo = makeRepo(FILES);
      symlinkSync('src', join(repo, 'alias'));
      const err = await refusal(run(repo, 'fenced-files', block('alias/app.ts')));
      expect(err.code).toBe('WRITE_SCOPE_VIOLATION');
      expect(err.message).toContain('symbolic link `alias` (→ `src`)');
    });
  });

  it('applies the repository’s allowed_paths and protected_paths, and the code-commit extras', async () => {
    const repo = makeRepo(FILES);
    const scoped = await refusal(
      run(repo, 'fenced-files', block('src/app.ts') + block('docs/x.md'), {
        policy: pathPolicy({ allowedPaths: ['src/**'] }),
      }),
    );
    expect(scoped.code).toBe('WRITE_SCOPE_VIOLATION');
    expect(scoped.message).toContain('`docs/x.md` is outside the allowed paths (`src/**`)');
    const extra = await refusal(
      run(repo, 'fenced-files', block('src/util.ts'), {
        policy: pathPolicy({ protectedPaths: ['src/util.ts'] }),
      }),
    );
    expect(extra.code).toBe('PROTECTED_PATH');
    const commit = await refusal(
      run(repo, 'fenced-files', block('build.sh'), {
        policy: pathPolicy({ codeCommitMode: true }),
      }),
    );
    expect(commit.message).toContain('`build.sh` is protected');
  });

  it('refuses a stale base_sha256 without writing anything', async () => {
    const repo = makeRepo(FILES);
    const before = snapshot(repo);
    const text = JSON.stringify({
      summary: 's',
      writes: [
        { path: 'src/util.ts', base_sha256: sha256(FILES['src/util.ts']), content: 'ok\n' },
        { path: 'src/app.ts', base_sha256: sha256('an older version\n'), content: 'x\n' },
      ],
    });
    const err = await refusal(run(repo, 'json-writes', text));
    expect(err.code).toBe('STALE_CONTEXT');
    expect(err.message).toContain(
      `\`src/app.ts\` has changed since it was read: its sha256 is now ${sha256(FILES['src/app.ts'])}`,
    );
    expect(snapshot(repo)).toEqual(before);
  });

  it('writes json-writes whose hashes match, with the empty-bytes hash for a new file', async () => {
    const repo = makeRepo(FILES);
    const text = JSON.stringify({
      summary: 'add b',
      writes: [
        { path: 'src/app.ts', base_sha256: sha256(FILES['src/app.ts']), content: 'x\n' },
        { path: 'src/b.ts', base_sha256: sha256(''), content: 'y\n' },
      ],
    });
    const result = await run(repo, 'json-writes', text);
    expect(read(repo, 'src/b.ts')).toBe('y\n');
    expect(result.changeSet.notes.user).toEqual(['add b']);
    const stale = await refusal(
      run(repo, 'json-writes', text.replace('"content":"y\\n"', '"content":"z\\n"')),
    );
    expect(stale.message).toContain('`src/b.ts` has changed');
  });

  it('restores every file when a write fails midway', async () => {
    const repo = makeRepo(FILES);
    const before = snapshot(repo);
    let renames = 0;
    const failing = {
      rename: async (from: string, to: string) => {
        if (++renames === 3) throw new Error('disk full');
        const { rename } = await import('node:fs/promises');
        await rename(from, to);
      },
    };
    const text =
      block('src/app.ts') +
      block('src/new/deep/file.ts') +
      block('src/util.ts') +
      '^^^.gitignore-not\n^^^delete\n';
    writeFileSync(join(repo, '.gitignore-not'), 'temp\n');
    const withExtra = snapshot(repo);
    const err = await refusal(run(repo, 'fenced-files', text, { io: failing }));
    expect(err.code).toBe('INTERNAL');
    expect(err.message).toContain('every file was restored');
    expect(snapshot(repo)).toEqual(withExtra);
    expect(existsSync(join(repo, 'src/new'))).toBe(false);
    expect(Object.keys(withExtra).length).toBe(Object.keys(before).length + 1);
  });

  it('deletes files last and reports "no change needed" for $$$', async () => {
    const repo = makeRepo(FILES);
    await run(repo, 'fenced-files', '^^^src/util.ts\n^^^delete\n');
    expect(existsSync(join(repo, 'src/util.ts'))).toBe(false);
    const none = await run(repo, 'fenced-files', '$$$start\nalready done\n$$$end\n');
    expect(none).toMatchObject({ applied: false, noChange: 'already done', diff: '' });
  });

  it('applies edit-ops through the same policy and writer', async () => {
    const repo = makeRepo(FILES);
    const text = JSON.stringify({
      operations: [
        {
          file_path: 'src/util.ts',
          operation: 'edit',
          edit_type: 'replace',
          target: 'return x;',
          content: 'return x ?? null;',
        },
      ],
    });
    await run(repo, 'edit-ops', text);
    expect(read(repo, 'src/util.ts')).toContain('return x ?? null;');
  });

  it('refuses binary files', async () => {
    const repo = makeRepo({ 'logo.png': 'PNG\u0000\u0001data' });
    const err = await refusal(run(repo, 'fenced-files', block('logo.png')));
    expect(err.message).toContain('binary or non-UTF-8');
  });

  it('writes a re-indented Python hunk with the file’s indentation and refuses it when sent again, leaving the tree as it was', async () => {
    const py =
      'class Cache:\n    def get(self, key):\n        if key in self.items:\n            return self.items[key]\n        return None\n';
    const repo = makeRepo({ 'cache.py': py });
    // The model quoted the method body four spaces shallower and used aider's `@@ ... @@`.
    const text =
      '```diff\n--- a/cache.py\n+++ b/cache.py\n@@ ... @@\n     if key in self.items:\n+        self.hits += 1\n         return self.items[key]\n     return None\n```\n';
    const result = await run(repo, 'udiff', text);
    expect(result.applied).toBe(true);
    const fixed = py.replace(
      '        if key in self.items:\n',
      '        if key in self.items:\n            self.hits += 1\n',
    );
    expect(read(repo, 'cache.py')).toBe(fixed);
    const before = snapshot(repo);
    const again = await refusal(run(repo, 'udiff', text));
    expect(again.message).toMatch(/cache\.py: hunk 1 .* looks already applied/);
    expect(snapshot(repo)).toEqual(before);
  });
});
