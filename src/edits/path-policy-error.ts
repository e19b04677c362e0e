import { AutofixError } from '../errors.js';
import type { PathViolation } from './find-path-violations.js';

/**
 * One error naming every offending path, so the LLM can fix them all in one round. Protected or
 * ignored files make it PROTECTED_PATH; paths outside the repository or the allowed paths make it
 * WRITE_SCOPE_VIOLATION.
 */
export function pathPolicyError(violations: readonly PathViolation[]): AutofixError {
  const anyProtected = violations.some((v) => v.kind === 'protected' || v.kind === 'ignored');
  const lines = violations.map((v) => `- \`${JSON.stringify(v.path).slice(1, -1)}\` ${v.reason}`);
  const count = violations.length === 1 ? 'a path that is' : `${violations.length} paths that are`;
  return new AutofixError(
    anyProtected ? 'PROTECTED_PATH' : 'WRITE_SCOPE_VIOLATION',
    `The change was refused because it touches ${count} not allowed; nothing was written.\n` +
      `${lines.join('\n')}\n` +
      'Leave these files out and send the change again, using repository-relative paths like `src/app.ts`.',
    { details: { violations } },
  );
}
