/** Replies intake posts itself (pure): a busy issue and an invalid repository config. */
import type { AutofixError } from '../errors.js';

export function renderBusyReply(activeRunId: string): string {
  return (
    `⏳ Autofix is already working on this (run \`${activeRunId}\`); its status comment shows the progress. ` +
    'This trigger was not queued: trigger again once that run has finished.'
  );
}

interface Problem {
  key: string;
  message: string;
}

function problemsOf(error: AutofixError): Problem[] {
  const details = error.details as { problems?: Problem[] } | undefined;
  return Array.isArray(details?.problems) ? details.problems : [];
}

export function renderConfigErrorReply(
  error: AutofixError,
  path: string,
  branch: string,
  command: string,
): string {
  const problems = problemsOf(error);
  const list =
    problems.length > 0
      ? problems.map((p) => `- \`${p.key}\`: ${p.message}`).join('\n')
      : `- ${error.message}`;
  return [
    `⚠️ Autofix did not start: \`${path}\` on \`${branch}\` is invalid.`,
    list,
    `Fix the file on the default branch, then comment \`${command}\` to try again.`,
  ].join('\n\n');
}
