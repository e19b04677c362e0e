/**
 * The agent of a mode (`agents/code-commit.md`, `agents/work-order.md`): shipped with
 * Autofix only, never overridden by the repository, parsed and checked like every other agent.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AutofixError } from '../../errors.js';
import { findAgentsDir } from '../../llm/load-agent.js';
import { parseAgent, type AgentDefinition } from '../../llm/parse-agent.js';

export type ModeAgentName = 'code-commit' | 'work-order';

export async function loadModeAgent(
  name: ModeAgentName,
  agentsDir?: string,
): Promise<AgentDefinition> {
  const dir = agentsDir ?? (await findAgentsDir());
  const text = await readFile(join(dir, `${name}.md`), 'utf8').catch((err: Error) => {
    throw new AutofixError('INTERNAL', `cannot read agents/${name}.md: ${err.message}`);
  });
  return parseAgent(text, `agents/${name}.md`);
}
