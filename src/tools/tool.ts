/**
 * What a tool the code agent may call is: a name, a description for the model, a typed schema
 * (zod, sent as JSON Schema), and a function over the run's ports. The loop knows tools only
 * through this shape (`registry.ts` lists them); each lives in its own module.
 */
import type { z } from 'zod';
import type { ToolWorkspace } from './tool-workspace.js';

/** What a call answered: text for the model, one line for the account of what the bot did. */
export interface ToolOutcome {
  /** Shown to the model (quoted as data by the loop). */
  text: string;
  /** One line for the PR body and the status comment: `read src/a.js:1-80`. */
  summary: string;
  /** The call failed (bad arguments, refused path…): still an answer, never a crash. */
  error?: boolean;
  /** `finish`: the loop ends with this. */
  finish?: { summary: string; notes?: string };
}

export interface Tool<A = unknown> {
  name: string;
  description: string;
  schema: z.ZodType<A>;
  run(args: A, workspace: ToolWorkspace): Promise<ToolOutcome>;
}

/** A tool's answer to a call it cannot serve: said to the model, not thrown. */
export const refused = (text: string, summary: string): ToolOutcome => ({
  text,
  summary,
  error: true,
});
