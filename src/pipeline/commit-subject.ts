/**
 * The commit subject's description (and so the PR title) comes from the issue title: what the
 * maintainer asked for, in their words, fitted to the Conventional Commit rule (10–100 chars).
 */
export function commitDescription(issueTitle: string, issueNumber: number): string {
  let text = issueTitle
    .replace(/\s+/g, ' ')
    .replace(/^\s*\[[^\]]*\]\s*/, '') // "[bug] …" tags
    .replace(/^(fix|feat|docs|chore|refactor)(\([^)]*\))?!?:\s*/i, '') // a title that is already conventional
    .replace(/[.!\s]+$/, '')
    .trim();
  if (text.length > 0) text = text[0]!.toLowerCase() + text.slice(1);
  if (text.length < 10) text = `${text ? `${text}: ` : ''}resolve issue #${issueNumber}`.trim();
  if (text.length > 100) text = `${text.slice(0, 99).replace(/\s+\S*$/, '')}…`;
  return text;
}
