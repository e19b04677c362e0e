import { ciTriggers } from '../../../src/intake/on-ci-completed.js';
import { ciCompletedPayload } from '../../helpers/webhooks.js';

const HEAD = 'a'.repeat(40);

describe('ciTriggers', () => {
  const payload = (
    pulls: { number: number; headRef: string }[],
    event: 'check_suite' | 'check_run' | 'workflow_run' = 'check_suite',
    id = 77,
  ) => ciCompletedPayload(event, { headSha: HEAD, pulls, id }) as Parameters<typeof ciTriggers>[2];

  it('keys each PR the completion names by head, event and id (a redelivery adds nothing)', () => {
    const [t, ...rest] = ciTriggers(
      'd-1',
      'check_suite.completed',
      payload([{ number: 5, headRef: 'autofix/fix/1-x' }]),
      undefined,
      1000,
    );
    expect(rest).toHaveLength(0);
    expect(t).toMatchObject({
      event: 'check_suite.completed',
      issue: { number: 5, isPullRequest: true },
      ci: { prNumber: 5, headSha: HEAD, headBranch: 'autofix/fix/1-x' },
      receivedAt: 1000,
    });
    expect(t!.triggerKey).toMatch(new RegExp(`^ci:\\d+#5@${HEAD}:check_suite\\.completed:77$`));
    const again = ciTriggers(
      'd-2',
      'check_suite.completed',
      payload([{ number: 5, headRef: 'autofix/fix/1-x' }]),
      undefined,
    );
    expect(again[0]!.triggerKey).toBe(t!.triggerKey);
  });

  it('drops PRs from branches outside a known prefix, and completions without a PR', () => {
    expect(
      ciTriggers(
        'd',
        'workflow_run.completed',
        payload([{ number: 5, headRef: 'feature/x' }], 'workflow_run'),
        'autofix/',
      ),
    ).toEqual([]);
    expect(ciTriggers('d', 'check_run.completed', payload([], 'check_run'), undefined)).toEqual([]);
    const both = ciTriggers(
      'd',
      'check_run.completed',
      payload(
        [
          { number: 5, headRef: 'feature/x' },
          { number: 6, headRef: 'autofix/fix/2-y' },
        ],
        'check_run',
      ),
      'autofix/',
    );
    expect(both.map((t) => t.ci?.prNumber)).toEqual([6]);
  });
});
