/**
 * Loads an agent from `agents/` (shipped with Autofix) or, when the repository has one, from
 * `.github/autofix/agents/<name>.md` on its default branch. The override is read through a
 * port so this module never touches GitHub or a checkout. An override may reword a prompt but
 * not change the output contract or un-declare untrusted placeholders.
 */
import { access, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EditFormat } from '../config/repo-config.js';
import { AutofixError } from '../errors.js';
import {
  assertNoUntrustedInSystem,
  parseAgent,
  splitFrontMatter,
  type AgentDefinition,
} from './parse-agent.js';

export const AGENT_NAMES = [
  'triage',
  'planner',
  'code-agent',
  'code-fixer',
  'pr-generator',
  'reproducer',
  'code-explorer',
] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

/** Returns the text of a repository file (path relative to the repo root) or undefined. */
export type OverrideReader = (path: string) => Promise<string | undefined> | string | undefined;

export interface LoadAgentOptions {
  /** Directory holding the shipped agent files; found next to the package when absent. */
  agentsDir?: string;
  readOverride?: OverrideReader;
}

export const overridePath = (name: string): string => `.github/autofix/agents/${name}.md`;

let cachedDir: string | undefined;

/** `agents/` of this package: walks up from this module (src/llm or dist/src/llm). */
export async function findAgentsDir(): Promise<string> {
  if (cachedDir) return cachedDir;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'agents');
    try {
      await access(join(candidate, 'triage.md'));
      cachedDir = candidate;
      return candidate;
    } catch {
      const parent = dirname(dir);
      if (parent === dir)
        throw new AutofixError('INTERNAL', 'agents/ directory not found next to the package');
      dir = parent;
    }
  }
}

async function readShipped(file: string, options: LoadAgentOptions): Promise<string> {
  const dir = options.agentsDir ?? (await findAgentsDir());
  try {
    return await readFile(join(dir, file), 'utf8');
  } catch (err) {
    throw new AutofixError('INTERNAL', `cannot read agents/${file}: ${(err as Error).message}`);
  }
}

export async function loadAgent(
  name: AgentName,
  options: LoadAgentOptions = {},
): Promise<AgentDefinition> {
  const shipped = parseAgent(await readShipped(`${name}.md`, options), `agents/${name}.md`);
  const path = overridePath(name);
  const text = await options.readOverride?.(path);
  if (text === undefined) return shipped;

  const override = parseAgent(text, path, true);
  const problems: string[] = [];
  if (override.name !== name) problems.push(`name is "${override.name}", expected "${name}"`);
  if (override.outputSchema !== shipped.outputSchema)
    problems.push(`output_schema must stay ${shipped.outputSchema}`);
  if (override.outputFormat !== shipped.outputFormat)
    problems.push(`output_format must stay ${shipped.outputFormat}`);
  if (problems.length > 0)
    throw new AutofixError('CONFIG_INVALID', `Agent override ${path}: ${problems.join('; ')}`, {
      details: { source: path, problems },
    });
  const untrusted = new Set([...shipped.untrusted, ...override.untrusted]);
  assertNoUntrustedInSystem(override.systemTemplate, untrusted, path);
  return { ...override, untrusted, fenced: new Set([...shipped.fenced, ...override.fenced]) };
}

/**
 * The instructions for one edit format (`agents/edit-formats/<format>.md`, overridable like an
 * agent), filled into the code agent's and fixer's `{{edit_format_instructions}}`.
 */
export async function loadEditFormatInstructions(
  format: EditFormat,
  options: LoadAgentOptions = {},
): Promise<string> {
  const name = `edit-formats/${format}`;
  const path = overridePath(name);
  const override = await options.readOverride?.(path);
  const source = override === undefined ? `agents/${name}.md` : path;
  const text = override ?? (await readShipped(`${name}.md`, options));
  const { frontMatter, body } = splitFrontMatter(text, source);
  const declared = (frontMatter as { format?: unknown } | null)?.format;
  if (declared !== format)
    throw new AutofixError(
      override === undefined ? 'INTERNAL' : 'CONFIG_INVALID',
      `Edit format file ${source}: front matter must say \`format: ${format}\``,
    );
  return body.trim();
}
