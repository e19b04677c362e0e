/**
 * Issue #38: a Python repository's commands run on the repository's code, never the worker's.
 * A worker whose interpreter has the repository's own package installed (fixed) made the
 * repository's failing test pass on the unfixed base. Real bubblewrap, real venvs, real pip
 * (offline: `--no-index --no-deps`), real child processes.
 */
import { jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import {
  chmod,
  cp,
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_REPO_CONFIG, type RepoConfig } from '../../../src/config/repo-config.js';
import { basicSandboxPolicy } from '../../../src/exec/sandbox-policy.js';
import { runValidation, type ValidationRun } from '../../../src/exec/run-validation.js';
import { VENV_DIR } from '../../../src/exec/toolchains/python-project.js';
import { NO_PYTHON_WARNING } from '../../../src/exec/toolchains/repo-environment.js';
import { underLoad } from '../../helpers/deadlines.js';

jest.setTimeout(underLoad(240_000));

const run = promisify(execFile);
const config = (over: Partial<RepoConfig>): RepoConfig => ({
  ...DEFAULT_REPO_CONFIG,
  command_timeout_seconds: 120,
  ...over,
});
const sandbox = basicSandboxPolicy('bwrap');

const BUGGY = 'def greet(name):\n    return "Hello " + name\n';
const FIXED = 'def greet(name):\n    return "Hello, " + name + "!"\n';
const TEST = [
  'import unittest',
  'from greetlib import greet',
  '',
  'class GreetTest(unittest.TestCase):',
  '    def test_greet(self):',
  '        self.assertEqual(greet("Ada"), "Hello, Ada!")',
  '',
].join('\n');
const SETUP_PY = [
  'from setuptools import setup, find_packages',
  'setup(name="greetlib", version="1.0", package_dir={"": "src"}, packages=find_packages("src"))',
  '',
].join('\n');
const PYPROJECT = '[project]\nname = "checks"\nversion = "1.0"\n';

/** A src-layout package (as flask's): `import greetlib` from the root finds no local copy. */
async function writePackage(dir: string, source: string): Promise<void> {
  await mkdir(join(dir, 'src', 'greetlib'), { recursive: true });
  await mkdir(join(dir, 'tests'), { recursive: true });
  await writeFile(join(dir, 'setup.py'), SETUP_PY);
  await writeFile(join(dir, 'src', 'greetlib', '__init__.py'), source);
  await writeFile(join(dir, 'tests', 'test_greet.py'), TEST);
}

// Offline: no wheel package in a 3.11 venv, so no PEP 517 build; `develop` needs none.
const SETUP = ['python setup.py develop'];
const UNITTEST = ['python -m unittest discover -s tests -v'];

describe('a Python repository runs on its own code, not the worker interpreter’s', () => {
  let scratch: string;
  let worker: string;
  let workerEnv: NodeJS.ProcessEnv;
  const worktrees: string[] = [];

  const worktree = async (): Promise<string> => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'autofix-pyenv-wt-')));
    worktrees.push(dir);
    return dir;
  };

  beforeAll(async () => {
    scratch = await realpath(await mkdtemp(join(tmpdir(), 'autofix-pyenv-')));
    // The worker's interpreter: a toolchain under the worker's HOME (as pyenv is), first on its
    // PATH, with the repository's package installed in it, fixed.
    worker = await mkdtemp(join(homedir(), '.autofix-test-worker-python-'));
    await chmod(worker, 0o755); // as a real toolchain's directory: the sandbox user may enter
    await run('python3', ['-m', 'venv', worker]);
    const fixed = join(scratch, 'fixed');
    await writePackage(fixed, FIXED);
    const site = (
      await run(join(worker, 'bin', 'python3'), [
        '-c',
        'import site; print(site.getsitepackages()[0])',
      ])
    ).stdout.trim();
    await cp(join(fixed, 'src', 'greetlib'), join(site, 'greetlib'), { recursive: true });
    workerEnv = { ...process.env, PATH: `${join(worker, 'bin')}:${process.env.PATH ?? ''}` };
    // The worker's own interpreter has it: outside the sandbox, the fixed test passes.
    const outside = await run(join(worker, 'bin', 'python3'), [
      '-c',
      'import greetlib; print(greetlib.greet("Ada"))',
    ]);
    expect(outside.stdout.trim()).toBe('Hello, Ada!');
  });
  afterAll(async () => {
    for (const dir of [scratch, worker, ...worktrees])
      await rm(dir, { recursive: true, force: true });
  });

  const validate = (
    dir: string,
    over: Partial<RepoConfig>,
    baseEnv: NodeJS.ProcessEnv = workerEnv,
  ): Promise<ValidationRun> => runValidation(config(over), dir, { sandbox, baseEnv });

  it('the failing test fails on the unfixed base and passes with the fix', async () => {
    const dir = await worktree();
    await writePackage(dir, BUGGY);
    const base = await validate(dir, { setup: SETUP, validate: UNITTEST });
    expect(base.results.map((r) => r.command)).toEqual([
      `python3 -m venv ${VENV_DIR}`,
      ...SETUP,
      ...UNITTEST,
    ]);
    expect(base.failed?.phase).toBe('validate');
    // It failed on the repository's code (the assertion), not on a missing module.
    expect(base.failed?.result.stderr).toMatch(/AssertionError: 'Hello Ada' != 'Hello, Ada!'/);

    await writeFile(join(dir, 'src', 'greetlib', '__init__.py'), FIXED);
    const fixed = await validate(dir, { setup: [], validate: UNITTEST });
    expect(fixed.passed).toBe(true);
    expect(fixed.results.map((r) => r.command)).toEqual(UNITTEST);

    // The venv never reaches git: it ignores itself.
    const status = await run('git', ['status', '--porcelain', '--untracked-files=all'], {
      cwd: await gitInit(dir),
    });
    expect(status.stdout).not.toContain(VENV_DIR);
  });

  it('`env PYTHONPATH=src` works with the venv active (and the worker’s PYTHONPATH does not reach it)', async () => {
    const dir = await worktree();
    await writePackage(dir, BUGGY);
    const line = ['env PYTHONPATH=src python -m unittest discover -s tests'];
    const leaky = { ...workerEnv, PYTHONPATH: join(worker, 'nowhere') };
    const base = await validate(dir, { validate: line, env_passthrough: ['PYTHONPATH'] }, leaky);
    expect(base.failed?.result.stderr).toMatch(/AssertionError: 'Hello Ada' != 'Hello, Ada!'/);
    await writeFile(join(dir, 'src', 'greetlib', '__init__.py'), FIXED);
    expect((await validate(dir, { validate: line }, leaky)).passed).toBe(true);
    const env = await validate(
      dir,
      {
        validate: [
          "python -c \"import os, sys; print(os.environ.get('PYTHONPATH'), os.environ['VIRTUAL_ENV'], sys.prefix, sys.flags.no_user_site)\"",
        ],
        env_passthrough: ['PYTHONPATH'],
      },
      leaky,
    );
    const venv = join(dir, VENV_DIR);
    expect(env.results.at(-1)!.stdout.trim()).toBe(`None ${venv} ${venv} 1`);
  });

  it('`env PYTHONPATH=src pytest` runs the venv’s pytest on the repository’s code', async () => {
    const dir = await worktree();
    await writePackage(dir, BUGGY);
    // PyPI is out of reach: pytest's own files, copied from the worker into the repository (the
    // sandbox hides the worker's copy), put on the venv's path by setup with a `pytest` script.
    const workerSite = (
      await run('python3', [
        '-c',
        'import pytest, os; print(os.path.dirname(os.path.dirname(pytest.__file__)))',
      ])
    ).stdout.trim();
    for (const name of [
      '_pytest',
      'pytest',
      'pluggy',
      'iniconfig',
      'packaging',
      'pygments',
      'py.py',
    ])
      await cp(join(workerSite, name), join(dir, 'vendor', name), { recursive: true });
    const setup = [
      `python -c "import pathlib, site; pathlib.Path(site.getsitepackages()[0], 'vendor.pth').write_text(str(pathlib.Path('vendor').resolve()))"`,
      `sh -c 'printf "#!%s\\nimport sys\\nfrom pytest import console_main\\nsys.exit(console_main())\\n" "$VIRTUAL_ENV/bin/python" > "$VIRTUAL_ENV/bin/pytest" && chmod +x "$VIRTUAL_ENV/bin/pytest"'`,
    ];
    const line = ['env PYTHONPATH=src pytest -q -p no:cacheprovider tests'];
    const base = await validate(dir, { setup, validate: line });
    expect(base.failed?.phase).toBe('validate');
    expect(base.failed?.result.stdout).toMatch(
      /AssertionError|assert 'Hello Ada' == 'Hello, Ada!'/,
    );
    expect(base.failed?.result.stdout).toContain('1 failed');
    await writeFile(join(dir, 'src', 'greetlib', '__init__.py'), FIXED);
    const fixed = await validate(dir, { setup: [], validate: line });
    expect(fixed.results.at(-1)?.stdout).toContain('1 passed');
    expect(fixed.passed).toBe(true);
  });

  it('the worker interpreter’s site-packages are not visible in the sandbox at all', async () => {
    const dir = await worktree();
    await writePackage(dir, BUGGY);
    // The worker's interpreter itself, by its path: its packages are gone.
    const direct = await validate(dir, {
      validate: [`${join(worker, 'bin', 'python3')} -c "import greetlib"`],
    });
    expect(direct.failed?.result.stderr).toMatch(/No module named 'greetlib'/);
  });

  it('a pytest from the worker’s PATH fails clearly instead of running on the worker’s packages', async () => {
    const dir = await worktree();
    await mkdir(join(dir, 'tests'));
    await writeFile(join(dir, 'pyproject.toml'), PYPROJECT);
    await writeFile(join(dir, 'tests', 'test_ok.py'), 'def test_ok():\n    assert True\n');
    // The worker's pytest (pyenv's, with pytest in its site-packages) would pass this.
    const result = await validate(dir, { validate: ['pytest -q tests'] }, process.env);
    expect(result.failed?.phase).toBe('validate');
    expect(result.failed?.result.stderr).toMatch(/No module named 'pytest'/);
    expect(result.failed?.result.stderr).toContain(
      "[autofix: pytest is not installed in the repository's environment: add it to setup, e.g. `pip install -e .[test]`]",
    );
  });

  it('says when the Python and Node versions the repository asks for were not honoured', async () => {
    const dir = await worktree();
    await writeFile(join(dir, 'pyproject.toml'), PYPROJECT);
    // No Python 3.99 here: the venv is made by whatever `python3` the sandbox runs.
    await writeFile(join(dir, '.python-version'), '3.99\n');
    await writeFile(join(dir, '.nvmrc'), 'v18\n');
    const probe = 'python -c "import platform; print(platform.python_version())"';
    const result = await validate(dir, { validate: [probe] }, process.env);
    expect(result.passed).toBe(true);
    const python = result.results.at(-1)!.stdout.trim();
    expect(result.warnings).toEqual([
      `The repository asks for Node 18 (.nvmrc); commands ran on Node ${process.versions.node}.`,
      `The repository asks for Python 3.99 (.python-version); commands ran on Python ${python}.`,
    ]);
    // A request that holds is no warning.
    await writeFile(join(dir, '.python-version'), `${python}\n`);
    await writeFile(join(dir, '.nvmrc'), `${process.versions.node}\n`);
    expect((await validate(dir, { validate: [probe] }, process.env)).warnings).toEqual([]);
  });

  it('a worker without python3 runs a repository that looks like a Python one without a venv, and says so', async () => {
    const dir = await worktree();
    await writeFile(join(dir, 'package.json'), '{}');
    await writeFile(join(dir, 'requirements.txt'), 'mkdocs\n');
    // A PATH with what the sandbox and the command need, and no python3.
    const bin = await mkdtemp(join(homedir(), '.autofix-test-no-python-'));
    worktrees.push(bin);
    await chmod(bin, 0o755);
    for (const tool of ['sh', 'prlimit', 'bwrap', 'setpriv', 'id', 'grep', 'env', 'node'])
      await symlink((await run('sh', ['-c', `command -v ${tool}`])).stdout.trim(), join(bin, tool));
    const result = await validate(
      dir,
      { validate: ['node -e "console.log(1)"'] },
      {
        ...process.env,
        PATH: bin,
      },
    );
    expect(result.passed).toBe(true);
    expect(result.results.map((r) => r.command)).toEqual(['node -e "console.log(1)"']);
    expect(result.warnings).toEqual([NO_PYTHON_WARNING]);
  });

  it('global npm packages other than npm and corepack are not importable', async () => {
    const dir = await worktree();
    await writeFile(join(dir, 'package.json'), '{}');
    // The worker's npm prefix (a fake `npm` answering `root -g`) with a package and its bin link.
    const prefix = await mkdtemp(join(homedir(), '.autofix-test-npm-prefix-'));
    worktrees.push(prefix);
    await chmod(prefix, 0o755);
    const root = join(prefix, 'lib', 'node_modules');
    await mkdir(join(root, 'leftpad'), { recursive: true });
    await writeFile(
      join(root, 'leftpad', 'cli.js'),
      '#!/usr/bin/env node\nconsole.log("global leftpad ran");\n',
    );
    await chmod(join(root, 'leftpad', 'cli.js'), 0o755);
    await mkdir(join(prefix, 'bin'));
    await symlink('../lib/node_modules/leftpad/cli.js', join(prefix, 'bin', 'leftpad'));
    await writeFile(join(prefix, 'bin', 'npm'), `#!/bin/sh\necho ${root}\n`);
    await chmod(join(prefix, 'bin', 'npm'), 0o755);
    const env = { ...process.env, PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}` };
    const hidden = await validate(dir, { validate: ['leftpad'] }, env);
    expect(hidden.failed?.result.stdout).not.toContain('global leftpad ran');
    // The real npm stays usable (its own folder is bound back).
    const npm = await validate(dir, { validate: ['npm --version'] });
    expect(npm.passed).toBe(true);
    expect(await readFile(join(root, 'leftpad', 'cli.js'), 'utf8')).toContain('leftpad');
  });
});

async function gitInit(dir: string): Promise<string> {
  await run('git', ['init', '-q'], { cwd: dir });
  return dir;
}
