/** Replies intake posts itself (pure): a busy issue, an open PR, an invalid repository config. */
import { createHash } from 'node:crypto';
import type { AutofixError } from '../errors.js';

/** Hidden marker of an intake reply, so a retried admission finds its earlier reply. */
export function replyMarker(key: string): string {
  // Hashed: the key holds a label name, which could close the HTML comment.
  return `<!-- autofix-reply:${createHash('sha256').update(key).digest('hex').slice(0, 24)} -->`;
}

export function renderOpenPullReply(
  pull: { number: number; url: string; branch: string },
  command: string,
  base: string,
): string {
  return (
    `🔁 This issue already has an open Autofix pull request: #${pull.number} (${pull.url}, branch \`${pull.branch}\`). ` +
    `Comment \`${command} <what to change>\` on that pull request to have it revised, or comment \`${command} fresh\` here to start over from \`${base}\`, replacing that branch (the pull request stays, with the new commit).`
  );
}

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
