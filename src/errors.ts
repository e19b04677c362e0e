/**
 * The one list of error codes (docs/CONTRACTS.md) and the error type every module throws.
 * Whether a failure is retried is decided here, not at each call site.
 */
export const ERROR_CODES = [
  'GIT_CONFLICT',
  'VALIDATION_FAILED',
  /** A `setup` command failed on the base commit: the configuration's fault, never the change's. */
  'SETUP_FAILED',
  'PERMISSION_DENIED',
  'INVALID_DIFF',
  'BRANCH_EXISTS',
  'WRITE_SCOPE_VIOLATION',
  'PROTECTED_PATH',
  'STALE_CONTEXT',
  'LLM_OUTPUT_INVALID',
  'LLM_UNAVAILABLE',
  'CONFIG_INVALID',
  'BUDGET_EXCEEDED',
  /**
   * The next LLM call would cross a money cap (or, for a model without a price, the token cap):
   * refused before it was sent; the run parks (`park-reason.ts`) and `/autofix continue` resumes
   * it. `details` holds the cap (`llm/spend-guard.ts`: `BudgetPausedDetails`). Never retried.
   */
  'BUDGET_PAUSED',
  'RISK_TOO_HIGH',
  'TIMEOUT',
  'SANDBOX_UNAVAILABLE',
  /** The change adds something credential-shaped (src/secrets/): stopped before any push. */
  'SECRET_IN_CHANGE',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Codes that a retry of the same job can fix (outages, races); all others are permanent. */
const TRANSIENT: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'LLM_UNAVAILABLE',
  'TIMEOUT',
  'INTERNAL',
]);

export interface ErrorShape {
  code: ErrorCode;
  message: string;
  details?: unknown;
  recoverable: boolean;
}

export class AutofixError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;
  readonly recoverable: boolean;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: unknown; recoverable?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AutofixError';
    this.code = code;
    this.details = options.details;
    this.recoverable = options.recoverable ?? TRANSIENT.has(code);
  }

  toShape(): ErrorShape {
    return {
      code: this.code,
      message: this.message,
      ...(this.details === undefined ? {} : { details: this.details }),
      recoverable: this.recoverable,
    };
  }
}

export function isAutofixError(err: unknown): err is AutofixError {
  return err instanceof AutofixError;
}

/** Wraps anything thrown into the AgentResponse failure shape. */
export function toErrorShape(err: unknown): ErrorShape {
  if (isAutofixError(err)) return err.toShape();
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'INTERNAL', message, recoverable: true };
}
