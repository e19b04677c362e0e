/**
 * A bounded failure brief (seed 002 §4.3): what the next repair round needs to know — stage,
 * command, exit code and the relevant excerpt — never a whole log (that stays in artifacts).
 */
import type { CommandResult } from '../../contracts.js';
import { isAutofixError } from '../../errors.js';

export type FailureStage = 'apply' | 'validate';

export interface FailureBrief {
  stage: FailureStage;
  code: string;
  command: string | null;
  exit_code: number | null;
  excerpt: string;
}

const MAX_EXCERPT_CHARS = 4_000;
const MAX_EXCERPT_LINES = 80;

/** Keeps the end of the output (where compilers and test runners summarise), bounded. */
export function excerptOf(text: string): string {
  const lines = text.replace(/\r\n/g, '\n').trimEnd().split('\n');
  let out =
    lines.length > MAX_EXCERPT_LINES
      ? lines.slice(-MAX_EXCERPT_LINES).join('\n')
      : lines.join('\n');
  if (out.length > MAX_EXCERPT_CHARS) out = out.slice(-MAX_EXCERPT_CHARS);
  const cut = out.length < text.trimEnd().length;
  return cut ? `[… earlier output cut; full log in the run's artifacts …]\n${out}` : out;
}

export function briefFromCommand(result: CommandResult): FailureBrief {
  const output = [result.stdout, result.stderr].filter((s) => s.trim() !== '').join('\n');
  return {
    stage: 'validate',
    code: result.timed_out ? 'TIMEOUT' : 'VALIDATION_FAILED',
    command: result.command,
    exit_code: result.exit_code,
    excerpt: excerptOf(result.timed_out ? `${output}\n(command timed out and was killed)` : output),
  };
}

export function briefFromError(err: unknown): FailureBrief {
  return {
    stage: 'apply',
    code: isAutofixError(err) ? err.code : 'INTERNAL',
    command: null,
    exit_code: null,
    excerpt: excerptOf(err instanceof Error ? err.message : String(err)),
  };
}

export function renderBrief(brief: FailureBrief): string {
  const head =
    brief.stage === 'apply'
      ? `Your previous answer was refused before anything was written (${brief.code}). Nothing from it was applied.`
      : `Validation failed: \`${brief.command}\` exited with ${brief.exit_code ?? 'no exit code'} (${brief.code}).`;
  return `${head}\n\n${brief.excerpt}`;
}
