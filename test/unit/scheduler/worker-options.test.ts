import { STAGES } from '../../../src/contracts.js';
import {
  parseConcurrency,
  parseRateLimit,
  parseSeconds,
} from '../../../src/scheduler/worker-options.js';
import {
  conversationOf,
  jobIdFor,
  nextStage,
  reactionTargetOf,
} from '../../../src/runs/run-addressing.js';
import { runFactsOf } from '../../../src/intake/build-run-job.js';

describe('worker options', () => {
  it('parses per-stage concurrency', () => {
    expect(parseConcurrency('triage=4, code=1')).toEqual({ triage: 4, code: 1 });
    expect(() => parseConcurrency('review=2')).toThrow(/triage, plan, reproduce, code, pr/);
    expect(() => parseConcurrency('code=0')).toThrow(/positive integer/);
  });

  it('parses the per-installation rate limit', () => {
    expect(parseRateLimit('30/60s')).toEqual({ max: 30, durationMs: 60_000 });
    expect(parseRateLimit('100/1h')).toEqual({ max: 100, durationMs: 3_600_000 });
    expect(parseRateLimit('5/250ms')).toEqual({ max: 5, durationMs: 250 });
    expect(parseRateLimit('10/30')).toEqual({ max: 10, durationMs: 30_000 });
    expect(parseRateLimit('off')).toBeUndefined();
    expect(() => parseRateLimit('fast')).toThrow(/30\/60s/);
  });

  it('parses seconds', () => {
    expect(parseSeconds('--shutdown-deadline', '1.5')).toBe(1500);
    expect(() => parseSeconds('--shutdown-deadline', '-1')).toThrow('--shutdown-deadline');
  });
});

describe('run addressing', () => {
  const labelTrigger = { kind: 'label' as const, label: 'autofix' };
  const feedbackTrigger = {
    kind: 'pr-feedback' as const,
    commentId: 5,
    prNumber: 9,
    branch: 'b',
    feedback: '',
  };
  // The facts intake decides (intake/build-run-job.ts), read back by the addressing.
  const label = {
    trigger: labelTrigger,
    issue: { number: 7, title: '', body: '' },
    facts: runFactsOf(7, labelTrigger),
  };
  const feedback = {
    trigger: feedbackTrigger,
    issue: { number: 7, title: '', body: '' },
    facts: runFactsOf(7, feedbackTrigger),
  };

  it('gives each stage of a run one job id without the colon BullMQ refuses', () => {
    expect(jobIdFor('run-abc', 'plan')).toBe('run-abc-plan');
  });

  it('chains the stages in order', () => {
    expect(STAGES.map((s) => nextStage(label, s))).toEqual([
      'plan',
      'reproduce',
      'code',
      'pr',
      undefined,
      undefined,
    ]);
    // A verification run is its one stage.
    const verify = {
      facts: runFactsOf(9, {
        kind: 'verify',
        prNumber: 9,
        branch: 'autofix/fix/7-x',
        headSha: 'a'.repeat(40),
        checkRunId: 3,
      }),
    };
    expect(STAGES.map((s) => nextStage(verify, s))).toEqual(STAGES.map(() => undefined));
    expect(
      reactionTargetOf({
        ...verify,
        trigger: { kind: 'verify', prNumber: 9, branch: 'b', headSha: 'c', checkRunId: 3 },
        issue: { number: 7, title: '', body: '' },
      }),
    ).toEqual({ kind: 'issue', number: 9 });
  });

  it('talks on the PR for feedback runs and reacts on the triggering comment', () => {
    expect(conversationOf(label)).toBe(7);
    expect(conversationOf(feedback)).toBe(9);
    expect(reactionTargetOf(label)).toEqual({ kind: 'issue', number: 7 });
    expect(reactionTargetOf(feedback)).toEqual({ kind: 'comment', id: 5 });
  });
});
