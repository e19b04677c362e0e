/**
 * The prompts of `autofix code-commit`, pure: the system message is the agent's sections in
 * the mode's order, the user message the data in its layout (README, `autofix code-commit`).
 *
 *   initial  [project structure][code modification instructions][initial query] | [query][codebase]
 *   repair   [project structure][code modification instructions][repair query]
 *            | [build output][debugging notes][query][codebase][file replacements, latest only]
 *   history  [project structure][code modification instructions][repair query with history]
 *            | [query][codebase] then, per earlier answer: its notes and replacements, and the
 *            build output that followed (`--history`)
 */
import { formatFileReplacements } from '../../../llm/format-file-replacements.js';
import type { AgentDefinition } from '../../../llm/parse-agent.js';
import { renderAgent } from '../../../llm/render-agent.js';
import type { ChatMessage } from '../../../llm/types.js';
import { agentSections } from './agent-sections.js';
import type { CodeCommitPrompt, RoundRecord } from './types.js';

const ROUND_SECTION = {
  initial: 'Initial query',
  repair: 'Repair query',
  history: 'Repair query with history',
} as const;

const block = (title: string, body: string): string => `## ${title}\n\n${body.trimEnd()}`;

function notes(debugNotes: readonly string[]): string {
  return debugNotes.length > 0 ? debugNotes.join('\n\n') : '(none)';
}

function repairRequest(prompt: CodeCommitPrompt & { kind: 'repair' }): string {
  const last = prompt.rounds.at(-1);
  return [
    block('Build output', last?.buildOutput ?? '(none)'),
    block('Your debugging notes', notes(prompt.rounds.flatMap((r) => r.debugNotes))),
    block('Query', prompt.query),
    block('Codebase', prompt.codebase),
    block('File replacements', formatFileReplacements(prompt.rounds.flatMap((r) => r.changes))),
  ].join('\n\n');
}

function historyEntry(round: RoundRecord, i: number): string {
  const replaced =
    round.changes.length > 0 ? formatFileReplacements(round.changes) : '(no file replacements)';
  return [
    i === 0
      ? 'The above query was provided, and you provided the following data in your response:'
      : 'You then provided the following data in your subsequent response:',
    block('Debugging notes', notes(round.debugNotes)),
    block('File replacements', replaced),
    'When the file replacements were made, the build provided the following output:',
    round.buildOutput.trimEnd(),
  ].join('\n\n');
}

function request(prompt: CodeCommitPrompt): string {
  const base = [block('Query', prompt.query), block('Codebase', prompt.codebase)];
  switch (prompt.kind) {
    case 'initial':
      return base.join('\n\n');
    case 'repair':
      return repairRequest(prompt);
    case 'history':
      return [...base, ...prompt.rounds.map(historyEntry)].join('\n\n');
  }
}

export function codeCommitMessages(
  agent: AgentDefinition,
  prompt: CodeCommitPrompt,
): ChatMessage[] {
  const systemTemplate = agentSections(agent, [
    'Project structure',
    'Code modification instructions',
    ROUND_SECTION[prompt.kind],
  ]);
  return renderAgent({ ...agent, systemTemplate }, { request: request(prompt) }).messages;
}
