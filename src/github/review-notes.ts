/**
 * Review feedback as the prompts see it (pure). A `/autofix <feedback>` run on the bot's pull
 * request carries the review's line comments and verdicts; they join the maintainer's feedback in
 * the `instructions` placeholder, which every agent quotes as untrusted data.
 */
import type { PullFeedbackNote } from './pull-feedback.js';

/** One review note (a line comment, or a review's verdict), text already sanitized. */
export type ReviewNote = PullFeedbackNote;

/** Bounds for what a run carries: the newest notes, each shortened. */
export const MAX_REVIEW_NOTES = 30;
export const MAX_REVIEW_NOTE_CHARS = 2000;

/** Keeps the newest `MAX_REVIEW_NOTES`, oldest first, each body cut to `MAX_REVIEW_NOTE_CHARS`. */
export function boundReviewNotes(notes: readonly ReviewNote[]): ReviewNote[] {
  return [...notes]
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .slice(-MAX_REVIEW_NOTES)
    .map((n) =>
      n.body.length > MAX_REVIEW_NOTE_CHARS
        ? { ...n, body: `${n.body.slice(0, MAX_REVIEW_NOTE_CHARS)} … (shortened)` }
        : n,
    );
}

function heading(note: ReviewNote): string {
  if (note.state) {
    const verdict = note.state.toLowerCase().replace(/_/g, ' ');
    return `Review by @${note.author} (${verdict})`;
  }
  const where = note.path ? `\`${note.path}\`${note.line ? ` line ${note.line}` : ''}` : 'the diff';
  return `@${note.author} on ${where}${note.outdated ? ' (outdated: the line has changed since)' : ''}`;
}

/** The maintainer's feedback, then the review notes oldest first. */
export function renderFeedbackInstructions(feedback: string, notes: readonly ReviewNote[]): string {
  const parts = [feedback.trim() || '(no text after the command)'];
  if (notes.length > 0) {
    parts.push(
      'Review comments on the pull request, oldest first:',
      ...notes.map((n) => `- ${heading(n)}:\n${n.body.replace(/^/gm, '  ')}`),
    );
  }
  return parts.join('\n\n');
}
