/**
 * A failed attempt becomes a bounded FailureBrief for the next SE prompt —
 * the stage, the command and exit code, the tail of the output (never a whole log: those stay in
 * the attempt's files) and a reminder of the work order's constraints.
 */
import { excerptOf } from '../../../pipeline/code/failure-brief.js';
import type { WorkOrder } from './work-order-schema.js';

export const FAILURE_STAGES = [
  'preflight',
  'llm_output_invalid',
  'write_scope_violation',
  'stale_context',
  'write_failed',
  'verify_failed',
  'acceptance_failed',
  'exception',
] as const;

export type FailureStage = (typeof FAILURE_STAGES)[number];

export interface FailureBrief {
  stage: FailureStage;
  command: string | null;
  exit_code: number | null;
  primary_error_excerpt: string;
  constraints_reminder: string;
}

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const MAX_REMINDER_CHARS = 1_500;

function reminder(order: Pick<WorkOrder, 'allowed_files' | 'forbidden'> | undefined): string {
  if (!order) return 'Fix the repository setup and run the work order again.';
  const text = [
    `Write only these files: ${order.allowed_files.join(', ')}.`,
    `Every write carries base_sha256 = the sha256 listed for the file's current content (${EMPTY_SHA256} for a new file).`,
    'Answer with one JSON object with the keys summary and writes only.',
    ...(order.forbidden.length > 0
      ? [`Forbidden: ${order.forbidden.map((f) => f.trim().replace(/[.;]+$/, '')).join('; ')}.`]
      : []),
  ].join(' ');
  return text.length > MAX_REMINDER_CHARS ? `${text.slice(0, MAX_REMINDER_CHARS)}…` : text;
}

export function failureBrief(
  stage: FailureStage,
  what: { text: string; command?: string; exit_code?: number | null },
  order?: Pick<WorkOrder, 'allowed_files' | 'forbidden'>,
): FailureBrief {
  return {
    stage,
    command: what.command ?? null,
    exit_code: what.exit_code ?? null,
    primary_error_excerpt:
      what.text.trim() === ''
        ? `(no output${what.exit_code === undefined ? '' : `; exit code ${what.exit_code ?? 'none'}`})`
        : excerptOf(what.text),
    constraints_reminder: reminder(order),
  };
}
