/**
 * A bounded failure brief: what the next repair round needs to know — stage,
 * command, exit code and the relevant excerpt — never a whole log (that stays in artifacts).
 */
import type { CommandResult } from '../../contracts.js';
import { isAutofixError } from '../../errors.js';
import type { ValidationPhase } from '../../exec/run-validation.js';

export type FailureStage = 'apply' | 'validate';

export interface FailureBrief {
  stage: FailureStage;
  code: string;
  command: string | null;
  exit_code: number | null;
  excerpt: string;
  /** For a failed command: which phase, and its whole (redacted) output for the report. */
  phase?: ValidationPhase;
  output?: string;
  /** Names that fail with the change and did not on the base commit. */
  new_failures?: string[] | null;
  network?: boolean;
  /** It failed the same way on the base commit, and it is about what the issue names. */
  about_the_issue?: boolean;
  /** The artifact holding the whole log. */
  log?: string;
  /** The answer was cut off: what the next round keeps and asks for (`continue-cut-answer.ts`). */
  continuation?: Continuation;
}

/** What the round after a cut-off answer asks for, and what it keeps of the cut round. */
export interface Continuation {
  /** The round's answers that arrived complete: applied again with the next answer. */
  kept: string[];
  /** The complete part of the cut answer: the next answer is appended to it. */
  head: string;
  /** The request, for the fixer's prompt. */
  ask: string;
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

/** A command's stdout and stderr as one text (the empty ones left out). */
export function commandOutput(result: Pick<CommandResult, 'stdout' | 'stderr'>): string {
  return [result.stdout, result.stderr].filter((s) => s.trim() !== '').join('\n');
}

export function briefFromCommand(
  result: CommandResult,
  extra: Pick<FailureBrief, 'phase' | 'new_failures' | 'network' | 'log' | 'about_the_issue'> = {},
): FailureBrief {
  const output = commandOutput(result);
  const shown = result.timed_out ? `${output}\n(command timed out and was killed)` : output;
  return {
    stage: 'validate',
    code: result.timed_out ? 'TIMEOUT' : 'VALIDATION_FAILED',
    command: result.command,
    exit_code: result.exit_code,
    excerpt: excerptOf(shown),
    output: shown,
    ...extra,
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
  const extra: string[] = [];
  if (brief.new_failures && brief.new_failures.length > 0) {
    extra.push(
      `These fail with your change and pass on the base commit (fix these; failures not listed here already existed before the change):\n${brief.new_failures
        .slice(0, 30)
        .map((n) => `- ${n}`)
        .join('\n')}`,
    );
  }
  if (brief.about_the_issue) {
    extra.push(
      'This failure already happened before your change, and it is about what the issue describes (it names the code the issue is about): it is the failure the fix must make pass.',
    );
  }
  if (brief.network) {
    extra.push(
      'The output looks like something tried to use the network: validation commands run without any network, so code and tests must not need it.',
    );
  }
  return [
    head,
    ...extra,
    brief.excerpt,
    ...(brief.continuation ? [brief.continuation.ask] : []),
  ].join('\n\n');
}
