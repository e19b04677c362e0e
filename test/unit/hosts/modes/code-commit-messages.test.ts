import { join } from 'node:path';
import { agentSections } from '../../../../src/hosts/modes/code-commit/agent-sections.js';
import { codeCommitMessages } from '../../../../src/hosts/modes/code-commit/code-commit-messages.js';
import type { RoundRecord } from '../../../../src/hosts/modes/code-commit/types.js';
import { loadModeAgent } from '../../../../src/hosts/modes/load-mode-agent.js';
import { REPO_ROOT } from '../../../helpers/cli.js';
import type { AgentDefinition } from '../../../../src/llm/parse-agent.js';

let agent: AgentDefinition;
beforeAll(async () => {
  agent = await loadModeAgent('code-commit', join(REPO_ROOT, 'agents'));
});

const base = { query: 'QUERY TEXT', codebase: 'CODEBASE TEXT' };
const rounds: RoundRecord[] = [
  {
    debugNotes: ['note one'],
    changes: [
      { path: 'a.rs', content: 'a v1\n' },
      { path: 'b.rs', content: 'b v1\n' },
    ],
    buildOutput: 'BUILD ONE',
  },
  {
    debugNotes: ['note two'],
    changes: [{ path: 'a.rs', content: 'a v2\n' }, { path: 'b.rs' }],
    buildOutput: 'BUILD TWO',
  },
];

/** Asserts that every piece occurs in `text`, in this order (each after the one before). */
function expectInOrder(text: string, pieces: string[]): void {
  let from = 0;
  for (const piece of pieces) {
    const at = text.indexOf(piece, from);
    expect([piece, at >= 0]).toEqual([piece, true]);
    from = at + piece.length;
  }
}

describe('codeCommitMessages', () => {
  it('lays out the initial query: system prompts, query, codebase', () => {
    const [system, user] = codeCommitMessages(agent, { kind: 'initial', ...base });
    expect(system!.role).toBe('system');
    expectInOrder(system!.content, [
      '## Project structure',
      '## Code modification instructions',
      '&&&start',
      '%%%start',
      '^^^src/main.rs',
      '^^^delete',
      '$$$start',
      '## Initial query',
    ]);
    expect(system!.content).not.toContain('## Repair query');
    expect(user!.role).toBe('user');
    expectInOrder(user!.content, ['QUERY TEXT', 'CODEBASE TEXT']);
  });

  it('lays out a repair query: latest build output, notes, query, codebase, latest replacements', () => {
    const [system, user] = codeCommitMessages(agent, { kind: 'repair', ...base, rounds });
    expect(system!.content).toContain('## Repair query');
    expect(system!.content).not.toContain('## Initial query');
    expect(system!.content).not.toContain('## Repair query with history');
    expectInOrder(user!.content, [
      'BUILD TWO',
      'note one',
      'note two',
      'QUERY TEXT',
      'CODEBASE TEXT',
      '--- FILE REPLACEMENT a.rs ---\n```\na v2\n```',
      '--- FILE REMOVED b.rs ---',
    ]);
    expect(user!.content).not.toContain('BUILD ONE');
    expect(user!.content).not.toContain('a v1');
    expect(user!.content).not.toContain('b v1');
  });

  it('lays out a history query (--history): every answer, then the build output after it', () => {
    const [system, user] = codeCommitMessages(agent, { kind: 'history', ...base, rounds });
    expect(system!.content).toContain('## Repair query with history');
    expectInOrder(user!.content, [
      'QUERY TEXT',
      'CODEBASE TEXT',
      'The above query was provided, and you provided the following data in your response:',
      'note one',
      'a v1',
      'b v1',
      'When the file replacements were made, the build provided the following output:',
      'BUILD ONE',
      'You then provided the following data in your subsequent response:',
      'note two',
      'a v2',
      '--- FILE REMOVED b.rs ---',
      'When the file replacements were made, the build provided the following output:',
      'BUILD TWO',
    ]);
  });

  it('does not read placeholders inside the data', () => {
    const [, user] = codeCommitMessages(agent, {
      kind: 'initial',
      query: 'use {{request}} literally',
      codebase: '',
    });
    expect(user!.content).toContain('use {{request}} literally');
  });
});

describe('agentSections', () => {
  it('names a missing section', () => {
    expect(() => agentSections(agent, ['Project structure', 'Nope'])).toThrow(
      'agents/code-commit.md has no section "## Nope"',
    );
  });
});
