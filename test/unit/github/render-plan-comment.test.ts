import { planCommentMarker, renderPlanComment } from '../../../src/github/render-plan-comment.js';

const plan = {
  plan_steps: [
    { id: '1', description: 'Return the defaults for an empty file.' },
    { id: '2', description: 'Add a test.' },
  ],
  file_changes: [
    { path: 'src/config.ts', operation: 'MODIFY' as const },
    { path: 'test/config.test.ts', operation: 'CREATE' as const },
  ],
  validation_commands: ['npm test'],
};

const render = (over: Partial<Parameters<typeof renderPlanComment>[0]> = {}): string =>
  renderPlanComment({
    marker: planCommentMarker('run-1', 0),
    triage: { risk: 'MEDIUM', summary: 'An empty config crashes' },
    plan,
    command: '/autofix',
    repo: { owner: 'o', repo: 'r' },
    ...over,
  });

describe('renderPlanComment', () => {
  it('shows risk, steps, files with their operation and the validation commands', () => {
    const body = render();
    expect(body.startsWith('<!-- autofix-plan:run-1:0 -->\n')).toBe(true);
    expect(body).toContain('**Risk:** MEDIUM — An empty config crashes');
    expect(body).toContain('1. Return the defaults for an empty file.\n2. Add a test.');
    expect(body).toContain('| `src/config.ts` | MODIFY |');
    expect(body).toContain('| `test/config.test.ts` | CREATE |');
    expect(body).toContain('- `npm test`');
  });

  it('ends with what to answer: approve, or plan with changes', () => {
    const body = render({ command: '/fix' });
    const last = body.split('\n\n').at(-1)!;
    expect(last).toContain('`/fix approve`');
    expect(last).toContain('`/fix plan <changes>`');
  });

  it('says when no validation command applies', () => {
    expect(render({ plan: { ...plan, validation_commands: [] } })).toContain('_None:');
  });

  it("neutralises the model's mentions, links, closing keywords, headings and markers", () => {
    const body = render({
      triage: { risk: 'HIGH', summary: 'ping @org/team, closes #5' },
      plan: {
        ...plan,
        plan_steps: [
          {
            id: '1',
            description: '# Approved\n[click](https://evil.example) <!-- autofix-plan:x:0 -->',
          },
        ],
        file_changes: [{ path: 'a|b`c.ts', operation: 'MODIFY' }],
      },
    });
    expect(body).not.toMatch(/(^|[^`])@org\/team/);
    expect(body).not.toMatch(/(^|[^`])closes #5/);
    expect(body).not.toContain('[click](https://evil.example)');
    expect(body).not.toMatch(/^# Approved/m);
    expect(body.match(/<!-- autofix-plan/g)).toHaveLength(1);
    // A path cannot break out of its cell or its code span.
    expect(body).toContain('| ``a\\|b`c.ts`` | MODIFY |');
  });

  it('gives each plan round its own marker', () => {
    expect(planCommentMarker('run-1', 0)).not.toBe(planCommentMarker('run-1', 1));
  });
});
