/**
 * The `## ` sections of an agent's system prompt, by heading. code-commit sends a different
 * selection per round (in this order: project structure, code modification instructions, then the
 * initial or the repair query prompt), all kept in one agent file.
 */
import { AutofixError } from '../../../errors.js';
import type { AgentDefinition } from '../../../llm/parse-agent.js';

export function agentSections(agent: AgentDefinition, headings: readonly string[]): string {
  const sections = new Map<string, string>();
  const parts = agent.systemTemplate.split(/^## +(.+?)[ \t]*$/m);
  for (let i = 1; i < parts.length; i += 2)
    sections.set(parts[i] ?? '', `## ${parts[i]}\n\n${(parts[i + 1] ?? '').trim()}`);
  const missing = headings.filter((h) => !sections.has(h));
  if (missing.length > 0)
    throw new AutofixError(
      'INTERNAL',
      `${agent.source} has no section ${missing.map((h) => `"## ${h}"`).join(', ')}`,
    );
  return headings.map((h) => sections.get(h)).join('\n\n');
}
