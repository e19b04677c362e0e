/**
 * A Python repository's commands run in an environment of its own (issue #38): a virtualenv in
 * the worktree, created by the sandbox's own `python3 -m venv` before `setup` and active for
 * `setup` and `validate`. Pure: which repositories are Python ones, the venv's variables, and
 * the note for a tool that is not in it.
 */
import { basename, join } from 'node:path';

/** Inside the worktree (the setup cache keeps it warm), ignored by git through its own `*`. */
export const VENV_DIR = '.autofix-venv';

/** The worker's variables that would let another interpreter's packages in. */
export const PYTHON_UNSET = ['PYTHONPATH', 'PYTHONHOME'] as const;

const MARKERS = new Set(['pyproject.toml', 'setup.py', 'setup.cfg', 'Pipfile', 'tox.ini']);

/** From the names at the worktree's root: `pyproject.toml`, `setup.py`, `requirements*.txt`, … */
export function isPythonProject(rootNames: readonly string[]): boolean {
  return rootNames.some((n) => MARKERS.has(n) || /^requirements.*\.txt$/.test(n));
}

/** The venv's variables for a command: its `bin` first on PATH, no user site. */
export function venvEnv(worktree: string, basePath: string | undefined): Record<string, string> {
  const venv = join(worktree, VENV_DIR);
  return {
    VIRTUAL_ENV: venv,
    PATH: [join(venv, 'bin'), basePath ?? '/usr/local/bin:/usr/bin:/bin'].join(':'),
    PYTHONNOUSERSITE: '1',
  };
}

/**
 * Creates the venv and makes git ignore it (a `*` `.gitignore` inside, as virtualenv and
 * Python ≥ 3.13 do): `git status` and the commit step never see it. Runs in the sandbox.
 */
export function createVenvArgv(): string[] {
  return ['sh', '-c', 'python3 -m venv "$1" && printf "*\\n" > "$1/.gitignore"', 'sh', VENV_DIR];
}

export const CREATE_VENV_LABEL = `python3 -m venv ${VENV_DIR}`;

/** The program a command line runs: past `env VAR=value`, and the module of `python -m X`. */
export function programOf(argv: readonly string[]): string | undefined {
  let i = 0;
  if (basename(argv[0] ?? '') === 'env') {
    i = 1;
    while (i < argv.length && (argv[i]!.includes('=') || argv[i]!.startsWith('-'))) i++;
  }
  const program = argv[i];
  if (program === undefined) return undefined;
  const name = basename(program);
  if (/^python(\d+(\.\d+)?)?$/.test(name) && argv[i + 1] === '-m') return argv[i + 2];
  return name;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A failed command whose tool is not in the venv (`No module named 'pytest'` from the worker's
 * `pytest` script, whose packages the sandbox hides, or no such command at all): what to do.
 */
export function missingToolNote(
  argv: readonly string[],
  result: { exit_code: number | null; stdout: string; stderr: string },
): string | undefined {
  if (result.exit_code === 0) return undefined;
  const tool = programOf(argv);
  if (tool === undefined) return undefined;
  const module = new RegExp(`No module named '?${escapeRegExp(tool.replace(/-/g, '_'))}'?(\\W|$)`);
  const missing = result.exit_code === 127 || module.test(`${result.stderr}\n${result.stdout}`);
  return missing
    ? `${tool} is not installed in the repository's environment: add it to setup, e.g. ` +
        '`pip install -e .[test]`'
    : undefined;
}
