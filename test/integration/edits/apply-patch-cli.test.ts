import { jest } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { applyPatchCommand } from '../../../src/bin/commands/apply-patch.js';
import { makeRepo, read, removeTempDirs, snapshot, tempDir } from './temp-repo.js';

const DIFF = '--- a/src/a.ts\n+++ b/src/a.ts\n@@ @@\n const a = 1;\n-const b = 2;\n+const b = 3;\n';

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = jest
    .spyOn(console, 'log')
    .mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = jest
    .spyOn(console, 'error')
    .mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  const saved = process.exitCode;
  process.exitCode = undefined;
  try {
    await applyPatchCommand()
      .exitOverride()
      .configureOutput({ writeErr: (s) => void err.push(s), writeOut: (s) => void out.push(s) })
      .parseAsync(args, { from: 'user' });
    return { code: Number(process.exitCode ?? 0), stdout: out.join('\n'), stderr: err.join('\n') };
  } finally {
    process.exitCode = saved;
    log.mockRestore();
    error.mockRestore();
  }
}

function setup(diff = DIFF): { repo: string; patch: string } {
  const repo = makeRepo({ 'src/a.ts': 'const a = 1;\nconst b = 2;\n' });
  const patch = join(tempDir(), 'change.diff');
  writeFileSync(patch, diff);
  return { repo, patch };
}

afterEach(removeTempDirs);

describe('autofix apply-patch', () => {
  it('applies a diff and exits 0', async () => {
    const { repo, patch } = setup();
    const result = await cli(['--repo', repo, '--patch', patch]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('applied: 1 file(s)');
    expect(result.stdout).toContain('hunk 1 → line 1 (exact, only-match)');
    expect(read(repo, 'src/a.ts')).toBe('const a = 1;\nconst b = 3;\n');
  });

  it('with --check says it would apply and writes nothing', async () => {
    const { repo, patch } = setup();
    const before = snapshot(repo);
    const result = await cli(['--repo', repo, '--patch', patch, '--check']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('would apply');
    expect(snapshot(repo)).toEqual(before);
  });

  it('with --json prints per-file and per-hunk results', async () => {
    const { repo, patch } = setup();
    const result = await cli(['--repo', repo, '--patch', patch, '--json', '--check']);
    const report = JSON.parse(result.stdout) as {
      ok: boolean;
      files: { path: string; hunks: { line: number; match: string }[] }[];
      diff: string;
    };
    expect(report.ok).toBe(true);
    expect(report.files[0]).toMatchObject({
      path: 'src/a.ts',
      hunks: [{ line: 1, match: 'exact', placedBy: 'only-match' }],
    });
    expect(report.diff).toContain('+const b = 3;');
  });

  it('exits 1 with the reason on stderr when the change is refused, writing nothing', async () => {
    const { repo, patch } = setup(DIFF.replace('-const b = 2;', '-const b = 5;'));
    const before = snapshot(repo);
    const result = await cli(['--repo', repo, '--patch', patch, '--json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('refused (INVALID_DIFF); nothing was written');
    expect(result.stderr).toContain('-const b = 5;');
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, error: { code: 'INVALID_DIFF' } });
    expect(snapshot(repo)).toEqual(before);
  });

  it('uses the default policy: protected files are refused', async () => {
    const { repo, patch } = setup('^^^.github/workflows/ci.yml\nrun: evil\n^^^end\n');
    const result = await cli(['--repo', repo, '--patch', patch, '--format', 'fenced-files']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PROTECTED_PATH');
  });

  it('exits 2 on usage errors', async () => {
    const { repo, patch } = setup();
    expect((await cli(['--repo', join(repo, 'missing'), '--patch', patch])).code).toBe(2);
    expect((await cli(['--repo', repo, '--patch', join(repo, 'missing.diff')])).code).toBe(2);
    // commander's own usage errors surface as CommanderError; bin/autofix.ts maps them to exit 2
    await expect(
      cli(['--repo', repo, '--patch', patch, '--format', 'bogus']),
    ).rejects.toBeInstanceOf(CommanderError);
  });
});
