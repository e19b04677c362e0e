/**
 * Commit messages (docs/CONTRACTS.md): a Conventional Commit subject, a blank line,
 * `Fixes #N`, then an optional body. Validated before `git commit`; a message that breaks the
 * rule is refused, never "fixed up" silently.
 *
 * The subject rule: `type(scope): description`, type one of fix/feat/docs/chore/refactor, scope
 * `[a-z0-9-]+`, a description of at least 10 characters, and the whole line at most 72
 * characters (so it shows unwrapped in `git log --oneline` and as a PR title).
 */
import type { CommitType } from '../contracts.js';
import { AutofixError } from '../errors.js';
import { fitDescription } from './commit-description.js';

/** The whole subject line, `type(scope): description`, in characters (UTF-16 units). */
export const SUBJECT_MAX_LENGTH = 72;
/** The description part at least. */
export const DESCRIPTION_MIN_LENGTH = 10;
/** The longest scope `formatCommitMessage` keeps, so that a long scope leaves room to describe. */
export const SCOPE_MAX_LENGTH = 24;

export const COMMIT_SUBJECT = new RegExp(
  `^(?=.{1,${SUBJECT_MAX_LENGTH}}$)(fix|feat|docs|chore|refactor)\\([a-z0-9-]+\\): .{${DESCRIPTION_MIN_LENGTH},}$`,
);

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
      `the first line must match ${COMMIT_SUBJECT.source} (type(scope): a description of at least ${DESCRIPTION_MIN_LENGTH} characters, the whole line at most ${SUBJECT_MAX_LENGTH}), got ${JSON.stringify(subject)}`,
      message,
    );
  }
  if (blank !== '') refuse('the second line must be blank', message);
  if (fixes !== `Fixes #${issue}`) refuse(`the third line must be "Fixes #${issue}"`, message);
  if (rest.length > 0 && rest[0] !== '')
    refuse('a body must be separated by a blank line', message);
}

/** A planner's scope as the rule wants it: `[a-z0-9-]`, at most `SCOPE_MAX_LENGTH`, else `core`. */
export function normaliseScope(scope: string): string {
  let out = scope
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (out.length > SCOPE_MAX_LENGTH) {
    const cut = out.slice(0, SCOPE_MAX_LENGTH + 1);
    const hyphen = cut.lastIndexOf('-');
    out = (hyphen > 0 ? cut.slice(0, hyphen) : cut.slice(0, SCOPE_MAX_LENGTH)).replace(/-+$/, '');
  }
  return out || 'core';
}

/** `type(scope): ` with the scope normalised: what the description's budget is left after. */
export function subjectPrefix(type: CommitType, scope: string): string {
  return `${type}(${normaliseScope(scope)}): `;
}

export interface CommitMessageInput {
  type: CommitType;
  scope: string;
  description: string;
  issue: number;
  body?: string;
}

/**
 * Builds a message that passes `validateCommitMessage` from loose parts (a planner's scope, a
 * description): the scope is normalised (`normaliseScope`), the description's whitespace
 * collapsed and cut at a word boundary to fit the 72-character subject. A description under 10
 * characters is refused rather than padded.
 */
export function formatCommitMessage(input: CommitMessageInput): string {
  const prefix = subjectPrefix(input.type, input.scope);
  const description = fitDescription(
    input.description.replace(/\s+/g, ' ').trim(),
    SUBJECT_MAX_LENGTH - prefix.length,
  );
  const body = input.body?.trim();
  const message = `${prefix}${description}\n\nFixes #${input.issue}${body ? `\n\n${body}` : ''}\n`;
  validateCommitMessage(message, input.issue);
  return message;
}
