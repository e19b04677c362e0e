import {
  cropCiLog,
  failureSignature,
  normalizeForSignature,
} from '../../../src/text/crop-ci-log.js';
import { actionsLog } from '../../helpers/actions-log.js';

describe('cropCiLog', () => {
  it('keeps the failing step of an Actions log: its name, output and error, without time stamps, colours or folded blocks', () => {
    const cropped = cropCiLog(
      actionsLog('FAIL test/math.test.js\n  ● add › sums\n    expected 5, got -1'),
    );
    expect(cropped.step).toBe('npm test');
    expect(cropped.errors).toEqual(['Process completed with exit code 1.']);
    expect(cropped.excerpt).toContain('● add › sums');
    expect(cropped.excerpt).toContain('Error: Process completed with exit code 1.');
    expect(cropped.excerpt).not.toMatch(/\d{4}-\d\d-\d\dT/);
    expect(cropped.excerpt).not.toContain('\u001b[');
    // The step's folded inputs and the other steps are left out.
    expect(cropped.excerpt).not.toContain('shell: /usr/bin/bash');
    expect(cropped.excerpt).not.toContain('Download action repository');
    expect(cropped.excerpt).not.toContain('cleanup noise');
    expect(cropped.cutLines).toBeGreaterThan(40);
  });

  it('picks the first step with an error when several ran, and keeps the ends of a long one within the limit', () => {
    const noise = Array.from({ length: 2000 }, (_, i) => `compiling module ${i}`);
    const log = [
      '##[group]Run npm ci',
      '##[endgroup]',
      'added 100 packages',
      '##[group]Run npm run build',
      '##[endgroup]',
      'tsc -p .',
      ...noise,
      "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      '##[error]Process completed with exit code 2.',
      '##[group]Run npm test',
      '##[endgroup]',
      '##[error]Process completed with exit code 1.',
    ].join('\n');
    const cropped = cropCiLog(log, { maxChars: 3000 });
    expect(cropped.step).toBe('npm run build');
    expect(cropped.excerpt.length).toBeLessThanOrEqual(3000 + 20);
    expect(cropped.excerpt).toContain('error TS2322');
    expect(cropped.excerpt).toContain('tsc -p .'); // the head of the step stays too
    expect(cropped.excerpt).toMatch(/lines cut/);
    expect(cropped.excerpt).not.toContain('added 100 packages');
  });

  it('cuts output in no known shape (another CI, a check run text) to its ends', () => {
    const text = [
      'Build #812 failed',
      ...Array.from({ length: 500 }, (_, i) => `line ${i}`),
      'FAILED: test_x',
    ].join('\n');
    const cropped = cropCiLog(text);
    expect(cropped.step).toBeUndefined();
    expect(cropped.excerpt.split('\n')[0]).toBe('Build #812 failed');
    expect(cropped.excerpt).toContain('FAILED: test_x');
    expect(cropped.excerpt).not.toContain('line 100\n');
  });
});

describe('failureSignature', () => {
  const of = (failure: string, name = 'test') => {
    const c = cropCiLog(failure);
    return failureSignature([{ name, errors: c.errors, excerpt: c.excerpt }]);
  };

  it('is the same for the same failure with other times, durations, hashes and temporary paths', () => {
    const a = actionsLog(
      'Tests: 1 failed, 12 passed (3.2 s)\nat /tmp/jest_abc123/x.js:4:8 expected 5 got -1 in 1a2b3c4d',
    );
    const b = actionsLog(
      'Tests: 1 failed, 12 passed (4.9 s)\nat /tmp/jest_zz9/x.js:4:9 expected 5 got -1 in 9f8e7d6c',
    ).replace(/T10:00:/g, 'T23:59:');
    expect(of(a)).toBe(of(b));
  });

  it('differs when another test fails, or another check', () => {
    expect(of(actionsLog('expected 5, got -1'))).not.toBe(
      of(actionsLog('TypeError: x is not a function')),
    );
    expect(of(actionsLog('expected 5, got -1'), 'test')).not.toBe(
      of(actionsLog('expected 5, got -1'), 'lint'),
    );
  });

  it('does not depend on the order checks are listed in', () => {
    const f = (name: string, text: string) => ({ name, errors: [], excerpt: text });
    expect(failureSignature([f('a', 'x'), f('b', 'y')])).toBe(
      failureSignature([f('b', 'y'), f('a', 'x')]),
    );
  });

  it('normalises numbers and times', () => {
    expect(normalizeForSignature('took 12ms at 10:00:01 run 42')).toBe(
      'took <time> at #:#:# run #',
    );
  });
});
