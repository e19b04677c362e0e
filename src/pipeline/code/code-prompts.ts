/** Template data of the code agent (one planned file) and the code fixer (a repair round). */
import { createHash } from 'node:crypto';
import type { FileChangePlan, FixPlan } from '../../contracts.js';
import { describeStyle, type StyleConfig } from '../../context/detect-style.js';
import { formatFileReplacements, type ChangedFile } from '../../llm/format-file-replacements.js';
import type { TemplateData } from '../../llm/render-agent.js';
import { issueData } from '../issue-data.js';
import type { IssueInput } from '../ports.js';
import { renderBrief, type FailureBrief } from './failure-brief.js';

export interface PromptBase {
  issue: IssueInput;
  plan: FixPlan;
  style: StyleConfig;
  codeContext: string;
  editFormatInstructions: string;
}

export function codeAgentData(
  base: PromptBase,
  change: FileChangePlan,
  content: string | undefined,
): TemplateData {
  const text = content ?? '';
  return {
    ...issueData(base.issue),
    edit_format_instructions: base.editFormatInstructions,
    plan: base.plan,
    file_path: change.path,
    file_operation: change.operation,
    line_range: change.line_range
      ? `${change.line_range[0]}-${change.line_range[1]}`
      : 'whole file',
    file_sha256: createHash('sha256').update(text).digest('hex'),
    file_content: text,
    code_context: base.codeContext,
    style: describeStyle(base.style),
  };
}

export function codeFixerData(
  base: PromptBase,
  round: {
    attempt: number;
    maxAttempts: number;
    brief: FailureBrief;
    changed: readonly ChangedFile[];
    debugNotes: readonly string[];
    allowAmendments: boolean;
  },
): TemplateData {
  return {
    ...issueData(base.issue),
    edit_format_instructions: base.editFormatInstructions,
    allow_plan_amendments: round.allowAmendments ? 'yes' : 'no',
    plan: base.plan,
    attempt: round.attempt,
    max_attempts: round.maxAttempts,
    failure_brief: renderBrief(round.brief),
    changed_files: formatFileReplacements(round.changed),
    debug_notes: round.debugNotes.length > 0 ? round.debugNotes.join('\n\n') : '(none)',
    code_context: base.codeContext,
    style: describeStyle(base.style),
  };
}

/** `Plan amendment: <path>: <why>` lines of a fixer answer (only honoured when config allows). */
export function parsePlanAmendments(text: string): { path: string; why: string }[] {
  return [...text.matchAll(/^Plan amendment:\s*`?([^`:\s]+)`?\s*:\s*(.+)$/gm)].map((m) => ({
    path: (m[1] ?? '').replace(/^\.\//, ''),
    why: (m[2] ?? '').trim(),
  }));
}
