/**
 * Template data of the SE prompt: the work order's intent and constraints, the
 * allowed files with the hash each write must carry, the forbidden list, the bounded context
 * files, and the previous attempt's FailureBrief. Pure.
 */
import type { TemplateData } from '../../../llm/render-agent.js';
import { fence } from '../../../llm/quote-untrusted.js';
import type { FailureBrief } from './failure-brief.js';
import type { AllowedFile, ContextFile } from './read-allowed-files.js';
import type { WorkOrder } from './work-order-schema.js';

export interface SePromptInput {
  order: WorkOrder;
  allowed: readonly AllowedFile[];
  context: readonly ContextFile[];
  attempt: number;
  maxAttempts: number;
  brief: FailureBrief | null;
  editFormatInstructions: string;
}

function contextText(file: ContextFile): string {
  if (file.content === undefined) return `### ${file.path}\n\n(${file.note ?? 'not shown'})`;
  const cut = file.truncated ? '\n(truncated: the 200 KB context limit was reached)' : '';
  return `### ${file.path}\n\n${fence(file.content)}${cut}`;
}

export function sePromptData(input: SePromptInput): TemplateData {
  const { order } = input;
  const list = (items: readonly string[]): string =>
    items.length > 0 ? items.map((i) => `- ${i}`).join('\n') : '(none)';
  return {
    edit_format_instructions: input.editFormatInstructions,
    work_order_id: order.id,
    title: order.title,
    intent: order.intent,
    notes: order.notes?.trim() ? order.notes : '(none)',
    allowed_files: list(
      input.allowed.map((f) =>
        f.exists ? `${f.path}: ${f.sha256}` : `${f.path}: does not exist yet (${f.sha256})`,
      ),
    ),
    forbidden: list(order.forbidden),
    acceptance_commands: list(order.acceptance_commands.map((c) => `\`${c}\``)),
    context_files:
      input.context.length > 0 ? input.context.map(contextText).join('\n\n') : '(none)',
    attempt: input.attempt,
    max_attempts: input.maxAttempts,
    failure_brief: input.brief
      ? JSON.stringify(input.brief, null, 2)
      : '(none: this is the first attempt)',
  };
}
