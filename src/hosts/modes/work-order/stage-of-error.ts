/** Which FailureBrief stage an edit-engine refusal belongs to (the TR node). */
import { isAutofixError } from '../../../errors.js';
import type { FailureStage } from './failure-brief.js';

export function stageOfError(err: unknown): FailureStage {
  if (!isAutofixError(err)) return 'exception';
  switch (err.code) {
    case 'LLM_OUTPUT_INVALID':
      return 'llm_output_invalid';
    case 'WRITE_SCOPE_VIOLATION':
    case 'PROTECTED_PATH':
      return 'write_scope_violation';
    case 'STALE_CONTEXT':
      return 'stale_context';
    case 'INVALID_DIFF':
    case 'SECRET_IN_CHANGE':
    case 'INTERNAL':
      return 'write_failed';
    default:
      return 'exception';
  }
}
