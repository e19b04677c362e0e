import { AutofixError } from '../errors.js';

/** Paths a change touches that the plan did not name: the plan is a contract
 * (docs/CONTRACTS.md). */
export function outsideScope(
  paths: readonly string[],
  scope: readonly string[],
  scopeName = 'the plan',
): AutofixError | undefined {
  const allowed = new Set(scope);
  const outside = paths.filter((p) => !allowed.has(p));
  if (outside.length === 0) return undefined;
  return new AutofixError(
    'WRITE_SCOPE_VIOLATION',
    `The change touches ${outside.map((p) => `\`${p}\``).join(', ')}, which ${scopeName} does not name; nothing was written.\n` +
      `${scopeName[0]!.toUpperCase()}${scopeName.slice(1)} allows only: ${scope.map((p) => `\`${p}\``).join(', ')}. Change only those files.`,
    { details: { outside, scope } },
  );
}
