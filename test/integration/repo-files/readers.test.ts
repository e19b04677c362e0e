/**
 * Issue #32, reader by reader: each place the worker reads a repository file, given what a
 * hostile repository (or its `setup`) leaves there — a link to the worker's environment, its
 * parent's, its HOME, a file outside the worktree (directly, by `..`, through a linked folder, as
 * a hard link), a FIFO, a 2 GB sparse file, a link loop — returns nothing of the target, does not
 * hang, and does not take a linked file for the repository's own (its settings, dependencies,
 * prompts). Each test fails with the reader's rules taken out.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRepoMap, loadFilesSync } from '../../../src/context/build-repo-map.js';
import { listRepoFiles } from '../../../src/context/list-repo-files.js';
import { detectStyle } from '../../../src/context/detect-style.js';
import { readRepoText } from '../../../src/edits/read-repo-text.js';
import { verifyChangeSet } from '../../../src/edits/verify-change-set.js';
import { isAutofixError } from '../../../src/errors.js';
import { readProjectInputs } from '../../../src/hosts/modes/code-commit/read-project-inputs.js';
import { readAllowedFiles } from '../../../src/hosts/modes/work-order/read-allowed-files.js';
import { readConfigAt } from '../../../src/pipeline/read-config-at.js';
import { readGuidanceAtBase } from '../../../src/pipeline/read-guidance.js';
import { repositorySigns, testExamples } from '../../../src/pipeline/reproduce/repository-signs.js';
import { snapshotOverrides } from '../../../src/pipeline/snapshot-overrides.js';
import { openRepoFiles } from '../../../src/repo-files/open-repo-files.js';
import {
  createHostileWorld,
  HOSTILE_KINDS,
  leakedCanaries,
  type HostileWorld,
} from '../../helpers/hostile-entries.js';
import { createRepo, type TestRepo } from '../../helpers/repo-builder.js';

let world: HostileWorld;
let root: string;
let repos: TestRepo[] = [];

beforeEach(() => {
  world = createHostileWorld();
  root = mkdtempSync(join(tmpdir(), 'autofix-readers-'));
});
afterEach(() => {
  world.cleanup();
  rmSync(root, { recursive: true, force: true });
  for (const r of repos) r.cleanup();
  repos = [];
});

const leaks = (value: unknown): string[] =>
  leakedCanaries(typeof value === 'string' ? value : JSON.stringify(value ?? null), world);

/** A committed repository whose links (only links: git holds nothing else) are `links`. */
function committed(files: Record<string, string>, links: (r: TestRepo) => void): TestRepo {
  const r = createRepo({ prefix: 'autofix-readers-repo-', files });
  links(r);
  r.git('add', '-A');
  r.commit('links');
  repos.push(r);
  return r;
}

describe('the repository map and its listing', () => {
  it.each(HOSTILE_KINDS)('leaves out %s, says why, and reads nothing of it', async (kind) => {
    writeFileSync(join(root, 'index.js'), 'export const ok = 1;\n');
    world.plant(root, 'src/secret.js', kind);
    const listed = { paths: ['index.js', 'src/secret.js'], source: 'git' as const, changes: [] };
    for (const map of [
      await buildRepoMap(root, { listed }),
      await buildRepoMap(root, { listed, readSync: true }),
    ]) {
      expect(map.files.map((f) => f.path)).toEqual(['index.js']);
      expect(map.skipped.map((s) => s.path)).toEqual(['src/secret.js']);
      expect(leaks(map)).toEqual([]);
    }
    expect(leaks(loadFilesSync(root, listed.paths))).toEqual([]);
  });

  it('walks a folder without descending into a linked one', async () => {
    writeFileSync(join(root, 'index.js'), 'export const ok = 1;\n');
    world.plant(root, 'lib/secret.txt', 'linked-directory');
    const { paths } = await listRepoFiles(root);
    expect(paths).toEqual(['index.js', 'lib']);
    expect(leaks(await buildRepoMap(root))).toEqual([]);
  });
});

describe('style files', () => {
  it('takes no setting from a linked .editorconfig or .prettierrc', async () => {
    world.linkOut(root, '.editorconfig', 'root = true\n[*]\nindent_style = tab\nindent_size = 8');
    world.linkOut(root, '.prettierrc', '{ "useTabs": true, "tabWidth": 8, "x": "CANARY" }');
    expect(await detectStyle(root)).toEqual({
      indent_style: 'space',
      indent_size: 2,
      end_of_line: 'lf',
      insert_final_newline: true,
    });
  });

  it('does not hang on a FIFO .editorconfig', async () => {
    execFileSync('mkfifo', [join(root, '.editorconfig')]);
    world.plant(root, '.prettierrc.json', 'sparse-2g');
    expect((await detectStyle(root)).indent_style).toBe('space');
  });
});

describe("the reproduce stage's signs and examples", () => {
  it('takes no dependency or script from a linked package.json', async () => {
    const r = committed({ 'index.js': '1;\n' }, (repo) =>
      world.linkOut(
        repo.dir,
        'package.json',
        '{ "devDependencies": { "jest": "29" }, "scripts": { "t": "vitest CANARY" } }',
      ),
    );
    const signs = await repositorySigns({ worktree: r.dir, gitDir: join(r.dir, '.git') }, []);
    expect(signs.dependencies).toEqual([]);
    expect(signs.commands).toEqual([]);
    expect(leaks(signs)).toEqual([]);
  });

  it.each(HOSTILE_KINDS)('shows no %s as an example, but the next real test', async (kind) => {
    writeFileSync(join(root, 'real.test.js'), "test('real', () => {});\n");
    world.plant(root, 't/a.test.js', kind);
    const shown = await testExamples(openRepoFiles(root), ['t/a.test.js', 'real.test.js'], []);
    expect(shown).toBe("### real.test.js\ntest('real', () => {});\n");
    expect(leaks(shown)).toEqual([]);
  });
});

describe('guidance, prompt overrides and configuration', () => {
  it('takes a linked AGENTS.md, CLAUDE.md or Copilot file for no guidance', async () => {
    const r = committed({ 'index.js': '1;\n' }, (repo) => {
      world.plant(repo.dir, 'AGENTS.md', 'proc-self-environ');
      world.plant(repo.dir, 'CLAUDE.md', 'outside-file');
      world.plant(repo.dir, '.github/copilot-instructions.md', 'home-file');
    });
    const head = r.git('rev-parse', 'HEAD');
    expect(await readGuidanceAtBase({ mirrorDir: r.dir, base_commit: head })).toBeUndefined();
  });

  it('takes no prompt override through a link, to a file or to a folder', async () => {
    world.linkOut(root, '.github/autofix/agents/code-agent.md', '---\nname: x\n---\nCANARY');
    const linkedDir = mkdtempSync(join(tmpdir(), 'autofix-agents-'));
    writeFileSync(join(linkedDir, 'planner.md'), world.canaries[0]!);
    mkdirSync(join(root, '.github/autofix/agents/nested'), { recursive: true });
    symlinkSync(linkedDir, join(root, '.github/autofix/agents/more'));
    try {
      const read = await snapshotOverrides(root);
      expect(await read('.github/autofix/agents/code-agent.md')).toBeUndefined();
      expect(await read('.github/autofix/agents/more/planner.md')).toBeUndefined();
    } finally {
      rmSync(linkedDir, { recursive: true, force: true });
    }
  });

  it('refuses a linked .github/autofix.yml as a configuration error naming the link', async () => {
    const r = committed({ 'index.js': '1;\n' }, (repo) =>
      world.linkOut(repo.dir, '.github/autofix.yml', 'validate:\n  - echo CANARY'),
    );
    const err: unknown = await readConfigAt({ cwd: r.dir, commit: 'HEAD' }).catch(
      (e: unknown) => e,
    );
    expect(isAutofixError(err) && err.code).toBe('CONFIG_INVALID');
    expect(String(err)).toMatch(
      /`\.github\/autofix\.yml` is a symbolic link to `\/.*`; links are not followed/,
    );
    expect(leaks(String(err))).toEqual([]);
  });
});

describe('what the edit engine and the modes read', () => {
  it.each(HOSTILE_KINDS)('refuses to take %s as a file to edit, naming it', async (kind) => {
    world.plant(root, 'src/secret.js', kind);
    const err: unknown = await readRepoText(root, 'src/secret.js').catch((e: unknown) => e);
    expect(isAutofixError(err) && err.code).toBe('INVALID_DIFF');
    expect(String(err)).toContain('src/secret.js');
    expect(leaks(String(err))).toEqual([]);
  });

  it.each(['fifo', 'hard-link', 'sparse-2g'] as const)('will not write over %s', async (kind) => {
    world.plant(root, 'src/secret.js', kind);
    const err: unknown = await verifyChangeSet(root, {
      files: [{ path: 'src/secret.js', op: 'write', content: 'x\n' }],
    } as never).catch((e: unknown) => e);
    expect(isAutofixError(err) && err.message).toMatch(/src\/secret\.js/);
  });

  it('shows no linked work-order context file, and hashes no linked allowed file', async () => {
    world.plant(root, 'a.txt', 'outside-file');
    world.plant(root, 'b.txt', 'proc-self-environ');
    const read = await readAllowedFiles(root, {
      allowed_files: ['a.txt', 'b.txt'],
      context_files: ['a.txt', 'b.txt'],
    });
    expect(read.allowed.map((a) => a.exists)).toEqual([false, false]);
    expect(read.context.map((c) => c.content)).toEqual([undefined, undefined]);
    expect(leaks(read)).toEqual([]);
  });

  it('refuses a linked code-commit query as a configuration error', async () => {
    world.linkOut(root, 'agent-config/query.txt', 'fix it');
    const err: unknown = await readProjectInputs(root).catch((e: unknown) => e);
    expect(isAutofixError(err) && err.code).toBe('CONFIG_INVALID');
    expect(String(err)).toContain('agent-config/query.txt');
    expect(leaks(String(err))).toEqual([]);
  });
});
