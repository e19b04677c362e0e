import type { FixPlan } from '../../../src/contracts.js';
import { COMMIT_SUBJECT, formatCommitMessage } from '../../../src/git/commit-message.js';
import { commitDescription } from '../../../src/pipeline/commit-subject.js';

type Plan = Pick<FixPlan, 'commit_type' | 'scope' | 'plan_steps' | 'commit_subject'>;

const LONG_TITLE =
  'Set-Cookie header is lost when several cookies are sent by the middleware behind the proxy layer';

const plan = (over: Partial<Plan> = {}): Plan => ({
  commit_type: 'fix',
  scope: 'headers',
  plan_steps: [
    { id: '1', description: 'Store Set-Cookie values in an array, not joined.' },
    { id: '2', description: 'Add a test with two cookies.' },
  ],
  ...over,
});

/** The subject line `commitChange` would write. */
function subject(p: Plan, title = LONG_TITLE, number = 14): string {
  const description = commitDescription({ plan: p, issue: { number, title } });
  return formatCommitMessage({
    type: p.commit_type,
    scope: p.scope,
    description,
    issue: number,
  }).split('\n')[0]!;
}

describe('commit subject', () => {
  it('comes from the plan, not from a long bug-describing issue title', () => {
    const title = `${LONG_TITLE} (seen in prod)`;
    expect(title.length).toBeGreaterThanOrEqual(103);
    const line = subject(
      plan({ commit_subject: 'set Set-Cookie header as an array of values' }),
      title,
    );
    expect(line).toBe('fix(headers): set Set-Cookie header as an array of values');
    expect(line.length).toBeLessThanOrEqual(72);
    expect(line).not.toContain('lost');
  });

  it('normalises the plan subject: prefix, period, tense', () => {
    expect(subject(plan({ commit_subject: 'fix(headers): Fixed the cookie join.' }))).toBe(
      'fix(headers): fix the cookie join',
    );
    expect(subject(plan({ commit_subject: 'Added an array for Set-Cookie values' }))).toBe(
      'fix(headers): add an array for Set-Cookie values',
    );
  });

  it('keeps an identifier that starts the subject as written', () => {
    expect(subject(plan({ commit_subject: 'URLSearchParams keeps repeated keys' }))).toBe(
      'fix(headers): URLSearchParams keeps repeated keys',
    );
    expect(subject(plan({ commit_subject: 'Set-Cookie values stay separate' }))).toBe(
      'fix(headers): Set-Cookie values stay separate',
    );
  });

  it('fits a long plan subject into 72 characters at a word boundary', () => {
    const line = subject(
      plan({
        commit_subject:
          'store every Set-Cookie value in its own array entry instead of joining them with commas',
      }),
    );
    expect(line).toBe('fix(headers): store every Set-Cookie value in its own array entry');
    expect(line.length).toBeLessThanOrEqual(72);
  });

  it('without a plan subject, comes from the first step (its first sentence)', () => {
    expect(subject(plan())).toBe('fix(headers): store Set-Cookie values in an array, not joined');
    expect(
      subject(
        plan({
          commit_subject: 'fix',
          plan_steps: [
            { id: '1', description: 'Fixed. ' },
            { id: '2', description: 'Make add() return a + b. Then test it.' },
          ],
        }),
      ),
    ).toBe('fix(headers): make add() return a + b');
  });

  it('last, resolves the issue by number, quoting the title only when it fits', () => {
    const steps = [{ id: '1', description: 'Fix.' }];
    expect(subject(plan({ plan_steps: steps }), 'Crash on empty config', 7)).toBe(
      'fix(headers): resolve issue #7: "Crash on empty config"',
    );
    expect(subject(plan({ plan_steps: steps }), LONG_TITLE, 7)).toBe(
      'fix(headers): resolve issue #7',
    );
  });

  it('disarms closing references from the plan or the title', () => {
    const line = subject(plan({ commit_subject: 'fixes #5 and closes #6 for cookies' }));
    expect(line).not.toMatch(/\b(?:fix|fixes|close|closes)\s+#[56]/i);
    expect(line).toContain('#5');
    const fallback = subject(plan({ plan_steps: [{ id: '1', description: 'x' }] }), 'closes #5', 9);
    expect(fallback).toBe('fix(headers): resolve issue #9: "see #5"');
    // The run's own issue may be named.
    expect(subject(plan({ commit_subject: 'close #14 by splitting cookies' }))).toBe(
      'fix(headers): close #14 by splitting cookies',
    );
  });

  it('property: every generated subject is at most 72 characters and passes the commit rule', () => {
    let seed = 0x2545f491;
    const rand = (n: number): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    const words = [
      'Fixed',
      'Adds',
      'set',
      'Set-Cookie',
      'URLSearchParams',
      'the',
      'header',
      'and',
      'of',
      'an',
      'array',
      '`parse(x)`',
      '(values',
      'closes',
      '#5',
      'fix(api):',
      '[bug]',
      'é',
      '😀',
      'x'.repeat(90),
      '.',
      '...',
      'Return',
      'README',
      'to',
      'with',
      'when',
      'empty',
      'config',
    ];
    const text = (max: number): string =>
      Array.from({ length: rand(max) }, () => words[rand(words.length)]!).join(
        rand(4) === 0 ? '  ' : ' ',
      );
    const types = ['fix', 'feat', 'docs', 'chore', 'refactor'] as const;
    const scopes = [
      'headers',
      'x',
      'Web UI',
      'a-very-long-scope-name-for-the-http-layer-of-it',
      '',
      '--',
    ];
    for (let i = 0; i < 2000; i++) {
      const p: Plan = {
        commit_type: types[rand(types.length)]!,
        scope: scopes[rand(scopes.length)]!,
        plan_steps: Array.from({ length: 1 + rand(3) }, (_, k) => ({
          id: String(k + 1),
          description: text(30),
        })),
        ...(rand(3) > 0 ? { commit_subject: text(25) } : {}),
      };
      const title = text(40);
      const line = subject(p, title, 1 + rand(5000));
      expect(line.length).toBeLessThanOrEqual(72);
      expect(line).toMatch(COMMIT_SUBJECT);
      expect(line).not.toMatch(/…$/);
    }
  });
});
