/**
 * Commit messages (DESIGN.md §3, seed 003): a Conventional Commit subject, a blank line,
 * `Fixes #N`, then an optional body. Validated before `git commit`; a message that breaks the
 * rule is refused, never "fixed up" silently.
 */
import type { CommitType } from '../contracts.js';
import { AutofixError } from '../errors.js';

export const COMMIT_SUBJECT = /^(fix|feat|docs|chore|refactor)\([a-z0-9-]+\): .{10,100}$/;

function refuse(why: string, message: string): never {
  throw new AutofixError('VALIDATION_FAILED', `commit message refused: ${why}`, {
    details: { message },
    recoverable: false,
  });
}

export function validateCommitMessage(message: string, issue: number): void {
  const lines = message.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n');
  const [subject = '', blank, fixes, ...rest] = lines;
  if (!COMMIT_SUBJECT.test(subject)) {
    refuse(
      `the first line must match ${COMMIT_SUBJECT.source} (type(scope): 10-100 characters), got ${JSON.stringify(subject)}`,
      message,
    );
  }
  if (blank !== '') refuse('the second line must be blank', message);
  if (fixes !== `Fixes #${issue}`) refuse(`the third line must be "Fixes #${issue}"`, message);
  if (rest.length > 0 && rest[0] !== '')
    refuse('a body must be separated by a blank line', message);
}

export interface CommitMessageInput {
  type: CommitType;
  scope: string;
  description: string;
  issue: number;
  body?: string;
}

/**
 * Builds a message that passes `validateCommitMessage` from loose parts (a planner's scope, an
 * issue title): the scope is normalised to `[a-z0-9-]`, the description trimmed to 100
 * characters. A description under 10 characters is refused rather than padded.
 */
export function formatCommitMessage(input: CommitMessageInput): string {
  const scope =
    input.scope
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'core';
  let description = input.description.replace(/\s+/g, ' ').trim();
  if (description.length > 100) description = `${description.slice(0, 99).trimEnd()}…`;
  const body = input.body?.trim();
  const message = `${input.type}(${scope}): ${description}\n\nFixes #${input.issue}${body ? `\n\n${body}` : ''}\n`;
  validateCommitMessage(message, input.issue);
  return message;
}
