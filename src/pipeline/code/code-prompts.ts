/** Template data of the code agent (one planned file) and the code fixer (a repair round). */
import { createHash } from 'node:crypto';
import type { EditFormat } from '../../config/repo-config.js';
import type { FileChangePlan, FixPlan } from '../../contracts.js';
import { describeStyle, type StyleConfig } from '../../context/detect-style.js';
import {
  formatFileReplacements,
  latestChanges,
  type ChangedFile,
} from '../../llm/format-file-replacements.js';
import { fence } from '../../llm/quote-untrusted.js';
import type { TemplateData } from '../../llm/render-agent.js';
import { issueData } from '../issue-data.js';
import type { IssueInput } from '../ports.js';
import { renderBrief, type FailureBrief } from './failure-brief.js';
import { viewFile, viewFiles, wholeView } from './file-view.js';
import { focusTerms, referencedLines, touchedRanges } from './view-focus.js';

export interface PromptBase {
  issue: IssueInput;
  plan: FixPlan;
  style: StyleConfig;
  codeContext: string;
  editFormatInstructions: string;
  /**
   * The format the answer is written in. Large files are shown as regions only to formats that
   * quote the lines they change; absent, every file is shown whole (safe for every format).
   */
  editFormat?: EditFormat;
}

/**
 * Formats whose edits quote the lines they change (udiff context, edit-ops targets), so a view
 * of the relevant regions is enough. fenced-files and json-writes write back the WHOLE file: a
 * model shown a part would write back only that part, so those always get the whole file (its
 * size is then the format's own cost; json-writes caps a file at 200 KB).
 */
const QUOTING_FORMATS: ReadonlySet<EditFormat> = new Set(['udiff', 'edit-ops']);

const showsRegions = (base: PromptBase): boolean =>
  base.editFormat !== undefined && QUOTING_FORMATS.has(base.editFormat);

const planRanges = (plan: FixPlan, path: string): [number, number][] =>
  plan.file_changes.flatMap((c) => (c.path === path && c.line_range ? [c.line_range] : []));

export function codeAgentData(
  base: PromptBase,
  change: FileChangePlan,
  content: string | undefined,
): TemplateData {
  const text = content ?? '';
  // The plan's range is of this very content; `file_sha256` stays the hash of all of it.
  const view = showsRegions(base)
    ? viewFile(text, {
        ...focusTerms(base.issue, base.plan),
        ranges: change.line_range ? [change.line_range] : [],
        lines: [],
      })
    : wholeView(text);
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
    file_content: view.text,
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
    /**
     * Each changed file's content before the code stage changed it (undefined: it was new), so
     * a large file's view centres on the lines changed so far; without it, on the plan's range.
     */
    originals?: ReadonlyMap<string, string | undefined>;
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
    changed_files: formatFileReplacements(round.changed, changedFileShow(base, round)),
    debug_notes: round.debugNotes.length > 0 ? round.debugNotes.join('\n\n') : '(none)',
    code_context: base.codeContext,
    style: describeStyle(base.style),
  };
}

/**
 * How the fixer sees each changed file: whole for whole-file formats, else views sharing one
 * budget, centred on the lines changed so far, the lines the failure output points at and the
 * words of the issue, plan and failure.
 */
function changedFileShow(
  base: PromptBase,
  round: {
    brief: FailureBrief;
    changed: readonly ChangedFile[];
    originals?: ReadonlyMap<string, string | undefined>;
  },
): ((file: { path: string; content: string }) => string) | undefined {
  if (!showsRegions(base)) return undefined;
  const present = latestChanges(round.changed).flatMap((c) =>
    c.content === undefined ? [] : [{ path: c.path, content: c.content }],
  );
  const terms = focusTerms(base.issue, base.plan, round.brief.excerpt);
  const views = viewFiles(
    present.map((file) => {
      const touched = touchedRanges(round.originals?.get(file.path), file.content);
      return {
        content: file.content,
        focus: {
          ...terms,
          // The plan's range numbers the original; once the change is known it says more.
          ranges: round.originals?.has(file.path) ? touched : planRanges(base.plan, file.path),
          lines: referencedLines(round.brief.excerpt, file.path),
        },
      };
    }),
  );
  const byPath = new Map(present.map((file, i) => [file.path, views[i]?.text ?? file.content]));
  return (file) => fence(byPath.get(file.path) ?? file.content);
}

/** `Plan amendment: <path>: <why>` lines of a fixer answer (only honoured when config allows). */
export function parsePlanAmendments(text: string): { path: string; why: string }[] {
  return [...text.matchAll(/^Plan amendment:\s*`?([^`:\s]+)`?\s*:\s*(.+)$/gm)].map((m) => ({
    path: (m[1] ?? '').replace(/^\.\//, ''),
    why: (m[2] ?? '').trim(),
  }));
}
