import {
  isPythonProject,
  missingToolNote,
  programOf,
  VENV_DIR,
  venvEnv,
} from '../../../../src/exec/toolchains/python-project.js';

describe('isPythonProject', () => {
  it.each([
    [['pyproject.toml'], true],
    [['setup.py', 'README.md'], true],
    [['setup.cfg'], true],
    [['Pipfile'], true],
    [['requirements.txt'], true],
    [['requirements-dev.txt'], true],
    [['package.json', 'README.md'], false],
    [['requirements.md', 'my-setup.py'], false],
  ])('%j → %s', (names, expected) => {
    expect(isPythonProject(names)).toBe(expected);
  });
});

describe('venvEnv', () => {
  it('puts the venv’s bin first and turns the user site off', () => {
    expect(venvEnv('/w', '/usr/bin:/bin')).toEqual({
      VIRTUAL_ENV: `/w/${VENV_DIR}`,
      PATH: `/w/${VENV_DIR}/bin:/usr/bin:/bin`,
      PYTHONNOUSERSITE: '1',
    });
  });
});

describe('programOf', () => {
  it.each([
    [['pytest', '-q'], 'pytest'],
    [['/usr/bin/env', 'PYTHONPATH=src', 'pytest', '-x'], 'pytest'],
    [['env', '-u', 'X=1', 'tox'], 'tox'],
    [['python', '-m', 'pytest'], 'pytest'],
    [['python3.11', '-m', 'unittest'], 'unittest'],
    [['python', 'run.py'], 'python'],
    [['env', 'A=1'], undefined],
  ])('%j → %s', (argv, expected) => {
    expect(programOf(argv)).toBe(expected);
  });
});

describe('missingToolNote', () => {
  const failed = (stderr: string, exit_code: number | null = 1) => ({
    exit_code,
    stdout: '',
    stderr,
  });
  const NOTE =
    "pytest is not installed in the repository's environment: add it to setup, e.g. `pip install -e .[test]`";

  it('names the tool the worker’s script could not import', () => {
    expect(
      missingToolNote(['pytest', '-q'], failed("ModuleNotFoundError: No module named 'pytest'")),
    ).toBe(NOTE);
    expect(
      missingToolNote(
        ['python', '-m', 'pytest'],
        failed('/venv/bin/python: No module named pytest'),
      ),
    ).toBe(NOTE);
    expect(missingToolNote(['env', 'PYTHONPATH=src', 'pytest'], failed('', 127))).toBe(NOTE);
  });

  it('says nothing of a test that failed on its own, or of another missing module', () => {
    expect(missingToolNote(['pytest'], failed('1 failed, 3 passed'))).toBeUndefined();
    expect(missingToolNote(['pytest'], failed("No module named 'pytest_cov'"))).toBeUndefined();
    expect(missingToolNote(['pytest'], { ...failed(''), exit_code: 0 })).toBeUndefined();
  });
});
