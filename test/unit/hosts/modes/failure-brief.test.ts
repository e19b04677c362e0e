import { AutofixError } from '../../../../src/errors.js';
import {
  FAILURE_STAGES,
  failureBrief,
} from '../../../../src/hosts/modes/work-order/failure-brief.js';
import { stageOfError } from '../../../../src/hosts/modes/work-order/stage-of-error.js';

const ORDER = { allowed_files: ['a.py', 'b.py'], forbidden: ['no new dependencies'] };

describe('failureBrief', () => {
  it('has exactly the stages the README lists', () => {
    expect(FAILURE_STAGES).toEqual([
      'preflight',
      'llm_output_invalid',
      'write_scope_violation',
      'stale_context',
      'write_failed',
      'verify_failed',
      'acceptance_failed',
      'exception',
    ]);
  });

  it('keeps a bounded tail of the output, never the whole log', () => {
    const log = Array.from({ length: 5000 }, (_, i) => `line ${i} ${'x'.repeat(50)}`).join('\n');
    const brief = failureBrief(
      'acceptance_failed',
      { text: `${log}\nAssertionError: boom`, command: 'pytest -q', exit_code: 1 },
      ORDER,
    );
    expect(brief.primary_error_excerpt.length).toBeLessThanOrEqual(4_100);
    expect(brief.primary_error_excerpt).toMatch(/AssertionError: boom$/);
    expect(brief.primary_error_excerpt).toContain('earlier output cut');
    expect(brief).toMatchObject({ stage: 'acceptance_failed', command: 'pytest -q', exit_code: 1 });
    expect(brief.constraints_reminder).toContain('Write only these files: a.py, b.py.');
    expect(brief.constraints_reminder).toContain('Forbidden: no new dependencies.');
  });

  it('says so when a command printed nothing', () => {
    expect(
      failureBrief(
        'acceptance_failed',
        { text: ' \n', command: 'grep -q x f', exit_code: 1 },
        ORDER,
      ).primary_error_excerpt,
    ).toBe('(no output; exit code 1)');
  });

  it('defaults command and exit code to null', () => {
    expect(failureBrief('stale_context', { text: 'x' }, ORDER)).toMatchObject({
      command: null,
      exit_code: null,
    });
  });
});

describe('stageOfError', () => {
  it.each([
    ['LLM_OUTPUT_INVALID', 'llm_output_invalid'],
    ['WRITE_SCOPE_VIOLATION', 'write_scope_violation'],
    ['PROTECTED_PATH', 'write_scope_violation'],
    ['STALE_CONTEXT', 'stale_context'],
    ['INVALID_DIFF', 'write_failed'],
    ['INTERNAL', 'write_failed'],
    ['LLM_UNAVAILABLE', 'exception'],
  ] as const)('maps %s to %s', (code, stage) => {
    expect(stageOfError(new AutofixError(code, 'x'))).toBe(stage);
  });

  it('maps anything else to exception', () => {
    expect(stageOfError(new Error('boom'))).toBe('exception');
  });
});
