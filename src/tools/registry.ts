/**
 * The tools the code agent may call, in the order the model is shown them, and their JSON
 * Schemas for the request (`autofix tools --json` prints the same).
 */
import { z } from 'zod';
import type { ToolSpec } from '../llm/types.js';
import { findDefinitionTool } from './find-definition.js';
import { findReferencesTool } from './find-references.js';
import { finishTool } from './finish.js';
import { listFilesTool } from './list-files.js';
import { proposeEditTool } from './propose-edit.js';
import { readFileTool } from './read-file.js';
import { runTestsTool } from './run-tests.js';
import { searchTool } from './search.js';
import type { Tool } from './tool.js';

export const TOOLS: readonly Tool[] = [
  readFileTool,
  searchTool,
  listFilesTool,
  findDefinitionTool,
  findReferencesTool,
  runTestsTool,
  proposeEditTool,
  finishTool,
];

/** A schema as servers take it: no `$schema` key, no bounds that only say "a safe integer". */
function parametersOf(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  delete json.$schema;
  return JSON.parse(
    JSON.stringify(json, (key, value: unknown) =>
      (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) ||
      (key === 'minimum' && value === Number.MIN_SAFE_INTEGER)
        ? undefined
        : value,
    ),
  ) as Record<string, unknown>;
}

export function toolSpecs(tools: readonly Tool[] = TOOLS): ToolSpec[] {
  return tools.map((t) => ({
    name: t.name,
    description: t.description,
    parameters: parametersOf(t.schema),
  }));
}
