import { formatZodIssues } from '../../../src/llm/ask-json.js';
import { fixPlanSchema, prSummarySchema, triageResultSchema } from '../../../src/llm/schemas.js';

const plan = {
  branch_name: 'fix/12-empty-config',
  commit_type: 'fix',
  scope: 'config',
  plan_steps: [{ id: 1, description: 'Return defaults for an empty file.' }],
  file_changes: [{ path: './src/config.ts', operation: 'modify', line_range: [3, 9] }],
  validation_commands: ['npm test'],
};

describe('output schemas', () => {
  it('accepts a triage result with harmless slips normalised', () => {
    expect(
      triageResultSchema.parse({
        risk: 'low',
        classification: 'FIX',
        affected_files: ['./a.ts'],
        summary: 'x',
      }),
    ).toEqual({ risk: 'LOW', classification: 'fix', affected_files: ['a.ts'], summary: 'x' });
  });

  it('accepts a plan, normalising ids, paths and operations', () => {
    expect(fixPlanSchema.parse(plan)).toEqual({
      ...plan,
      plan_steps: [{ id: '1', description: 'Return defaults for an empty file.' }],
      file_changes: [{ path: 'src/config.ts', operation: 'MODIFY', line_range: [3, 9] }],
    });
  });

  it('normalises an optional commit subject, and drops one too short to use', () => {
    expect(fixPlanSchema.parse(plan)).not.toHaveProperty('commit_subject', expect.anything());
    const parse = (commit_subject: unknown): unknown =>
      fixPlanSchema.parse({ ...plan, commit_subject }).commit_subject;
    expect(parse('fix(config): Returned defaults for an empty file.')).toBe(
      'return defaults for an empty file',
    );
    expect(parse('URLSearchParams keeps repeated keys')).toBe(
      'URLSearchParams keeps repeated keys',
    );
    expect(parse('fix')).toBeUndefined();
    expect(parse(null)).toBeUndefined();
    expect(parse(42)).toBeUndefined();
  });

  it('names every problem of a bad plan by its path', () => {
    const result = fixPlanSchema.safeParse({
      ...plan,
      scope: 'Config Loader',
      branch_name: '../x',
      file_changes: [
        { path: 'a.ts', operation: 'RENAME' },
        { path: 'b.ts', operation: 'MODIFY', line_range: [9, 3] },
      ],
    });
    expect(result.success).toBe(false);
    const issues = formatZodIssues(result.error!);
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^scope: /),
        expect.stringMatching(/^branch_name: /),
        expect.stringMatching(/^file_changes\.0\.operation: /),
        expect.stringMatching(/^file_changes\.1\.line_range: start line/),
      ]),
    );
  });

  it('refuses a plan naming one path twice', () => {
    const twice = { ...plan, file_changes: [plan.file_changes[0], plan.file_changes[0]] };
    expect(fixPlanSchema.safeParse(twice).success).toBe(false);
  });

  it('wants a real summary sentence for the PR', () => {
    expect(prSummarySchema.safeParse({ summary: 'ok' }).success).toBe(false);
    expect(
      prSummarySchema.safeParse({ summary: 'Fixes the crash on empty config files.' }).success,
    ).toBe(true);
  });
});
