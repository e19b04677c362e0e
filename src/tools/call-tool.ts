/**
 * One tool call, answered whatever it holds: an unknown tool, arguments that are not JSON or do
 * not fit the schema, a tool that throws — each is an answer the model reads (`error: true`),
 * never a crash of the run. Answers are cut to the limit, keeping both ends.
 */
import { describeSchemaIssues } from '../edits/describe-schema-issues.js';
import type { ToolCall } from '../llm/normalize-tool-calls.js';
import { refused, type Tool, type ToolOutcome } from './tool.js';
import type { ToolWorkspace } from './tool-workspace.js';

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.floor(max * 0.4);
  return `${text.slice(0, head)}\n[… ${text.length - max} characters cut …]\n${text.slice(-(max - head))}`;
}

async function answer(
  call: ToolCall,
  ws: ToolWorkspace,
  tools: readonly Tool[],
): Promise<ToolOutcome> {
  const tool = tools.find((t) => t.name === call.name);
  if (!tool)
    return refused(
      `there is no tool \`${call.name}\`; the tools are: ${tools.map((t) => t.name).join(', ')}`,
      `${call.name}: no such tool`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(call.arguments);
  } catch (err) {
    return refused(
      `the arguments are not JSON (${(err as Error).message}); send a JSON object`,
      `${call.name}: arguments not JSON`,
    );
  }
  const args = tool.schema.safeParse(raw);
  if (!args.success)
    return refused(
      `the arguments do not fit ${call.name}: ${describeSchemaIssues(args.error).join('; ')}`,
      `${call.name}: bad arguments`,
    );
  try {
    return await tool.run(args.data, ws);
  } catch (err) {
    return refused(`${call.name} failed: ${(err as Error).message}`, `${call.name}: failed`);
  }
}

export async function callTool(
  call: ToolCall,
  ws: ToolWorkspace,
  tools: readonly Tool[],
): Promise<ToolOutcome> {
  const outcome = await answer(call, ws, tools);
  return { ...outcome, text: cut(outcome.text, ws.limits.answerChars) };
}
