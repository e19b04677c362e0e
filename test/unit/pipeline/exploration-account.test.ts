/** What the bot looked at, where maintainers look: the PR body's section and the status line. */
import type { Exploration } from '../../../src/contracts.js';
import { explorationSection } from '../../../src/pipeline/pr/render-pr-body.js';
import { statusOfStage } from '../../../src/runs/status-of-stage.js';

const EXPLORATION: Exploration = {
  steps: [
    { round: 0, tool: 'search', summary: 'searched `add(`: 3 hits in 2 files', error: false },
    { round: 0, tool: 'read_file', summary: 'read src/math.js:1-7', error: false },
    { round: 0, tool: 'read_file', summary: 'read src/env.js: refused', error: true },
    { round: 0, tool: 'propose_edit', summary: 'edited src/math.js', error: false },
    { round: 1, tool: 'run_tests', summary: 'ran `node test.js`: passed', error: false },
  ],
  ends: ['the model said the change is complete'],
};

describe('the account of the tool loop', () => {
  it('lists each call in order in the PR body, repairs and refusals marked', () => {
    expect(explorationSection(EXPLORATION, (t) => t)).toBe(
      [
        '### What the bot looked at',
        '',
        '1. searched `add(`: 3 hits in 2 files',
        '2. read src/math.js:1-7',
        '3. read src/env.js: refused ✗',
        '4. edited src/math.js',
        '5. (repair 1) ran `node test.js`: passed',
        '',
        '<sub>5 tool call(s); the model said the change is complete.</sub>',
      ].join('\n'),
    );
  });

  it('cuts a long account and says where the rest is', () => {
    const steps = Array.from({ length: 45 }, () => EXPLORATION.steps[1]!);
    expect(explorationSection({ steps, ends: ['x'] }, (t) => t)).toContain(
      "…and 5 more; the run's artifacts keep the whole transcript.",
    );
  });

  it('counts the calls by kind in the status comment', () => {
    const patch = statusOfStage('code', {
      code: {
        changes: [],
        validation: [],
        warnings: [],
        notes: { user: [], debug: [] },
        amendments: [],
        repairs: 0,
        baseline: null,
        preexisting: [],
        exploration: EXPLORATION,
      },
    } as never);
    expect(patch.explored).toBe('2 files read, 1 search, 1 test run, 1 edit');
  });
});
