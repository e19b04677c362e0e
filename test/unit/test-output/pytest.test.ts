import { brief, reportOf } from './report-of.js';

const WT = '/w';

describe('pytest reader', () => {
  const output = [
    '============================= test session starts ==============================',
    'platform linux -- Python 3.12.1, pytest-8.0.0, pluggy-1.4.0',
    'rootdir: /w',
    'collected 4 items',
    '',
    'tests/test_calc.py F.F                                                   [ 75%]',
    'tests/test_other.py F                                                    [100%]',
    '',
    '=================================== FAILURES ===================================',
    '___________________________________ test_add ___________________________________',
    '',
    '    def test_add():',
    '>       assert add(2, 2) == 4',
    'E       assert 5 == 4',
    'E        +  where 5 = add(2, 2)',
    '',
    'tests/test_calc.py:5: AssertionError',
    '_______________________________ TestDiv.test_zero _______________________________',
    '',
    '    def div(a, b):',
    '>       return a / b',
    'E       ZeroDivisionError: division by zero',
    '',
    '/w/calc/ops.py:3: ZeroDivisionError',
    '=========================== short test summary info ============================',
    'FAILED tests/test_calc.py::test_add - assert 5 == 4',
    'FAILED tests/test_calc.py::TestDiv::test_zero - ZeroDivisionError: division by zero',
    'FAILED tests/test_other.py::test_x[1-2] - KeyError: 1',
    '========================= 3 failed, 1 passed in 0.12s ==========================',
  ];

  it('places each failure where it raised, names it from the short summary, and counts', () => {
    const report = reportOf('pytest', output, { worktree: WT });
    expect(report.failures.map(brief)).toEqual([
      'test test_add @ tests/test_calc.py:5',
      'test TestDiv.test_zero @ calc/ops.py:3',
      'test test_x[1-2] @ tests/test_other.py:1',
    ]);
    expect(report.failures.map((f) => f.id)).toEqual([
      'tests/test_calc.py::test_add',
      'tests/test_calc.py::TestDiv::test_zero',
      'tests/test_other.py::test_x[1-2]',
    ]);
    expect(report.failures[0]!.message).toBe('assert 5 == 4\n +  where 5 = add(2, 2)');
    expect(report.failures[2]!.message).toBe('KeyError: 1');
    expect(report.counts).toEqual({ failed: 3, passed: 1 });
  });

  it('reads -q output: a short traceback at its last frame, the quiet summary', () => {
    const report = reportOf('pytest', [
      '___________________________________ test_add ___________________________________',
      'tests/test_calc.py:5: in test_add',
      '    assert add(2, 2) == 4',
      'calc.py:2: in add',
      '    return a + b + 1',
      'E   assert 5 == 4',
      '=========================== short test summary info ============================',
      'FAILED tests/test_calc.py::test_add - assert 5 == 4',
      '1 failed in 0.03s',
    ]);
    expect(report.failures.map(brief)).toEqual(['test test_add @ calc.py:2']);
    expect(report.counts).toEqual({ failed: 1 });
  });

  it('reads a collection error as a failing file and an import error', () => {
    const report = reportOf('pytest', [
      '==================================== ERRORS ====================================',
      '____________________ ERROR collecting tests/test_calc.py _____________________',
      "ImportError while importing test module '/w/tests/test_calc.py'.",
      "E   ModuleNotFoundError: No module named 'calc'",
      '=========================== short test summary info ============================',
      'ERROR tests/test_calc.py',
      '!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!',
      '=============================== 1 error in 0.05s ===============================',
    ]);
    expect(report.failures.map(brief)).toEqual(['suite tests/test_calc.py @ tests/test_calc.py:1']);
    expect(report.errors.map((e) => e.cause)).toEqual(['import', 'import']);
    expect(report.counts).toEqual({});
  });
});
