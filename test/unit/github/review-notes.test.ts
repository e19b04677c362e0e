import {
  boundReviewNotes,
  MAX_REVIEW_NOTE_CHARS,
  MAX_REVIEW_NOTES,
  renderFeedbackInstructions,
  type ReviewNote,
} from '../../../src/github/review-notes.js';

const note = (n: number, extra: Partial<ReviewNote> = {}): ReviewNote => ({
  author: `user${n}`,
  body: `comment ${n}`,
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
  ...extra,
});

describe('review notes', () => {
  it('keeps the newest notes, oldest first, and shortens long bodies', () => {
    const notes = Array.from({ length: MAX_REVIEW_NOTES + 5 }, (_, i) => note(i)).reverse();
    notes[0] = { ...notes[0]!, body: 'x'.repeat(MAX_REVIEW_NOTE_CHARS + 50) };
    const kept = boundReviewNotes(notes);
    expect(kept).toHaveLength(MAX_REVIEW_NOTES);
    expect(kept[0]!.author).toBe('user5');
    expect(kept.at(-1)!.author).toBe(`user${MAX_REVIEW_NOTES + 4}`);
    expect(kept.at(-1)!.body).toMatch(/^x{2000} … \(shortened\)$/);
  });

  it('renders the feedback, then line comments and review verdicts with where they point', () => {
    const text = renderFeedbackInstructions('  please address the review ', [
      note(1, { author: 'alice', path: 'src/a.ts', line: 12, body: 'rename this\nand test it' }),
      note(2, { author: 'bob', state: 'CHANGES_REQUESTED', body: 'needs a test' }),
      note(3, { author: 'carol', path: 'src/b.ts', outdated: true, body: 'old remark' }),
    ]);
    expect(text).toBe(
      [
        'please address the review',
        'Review comments on the pull request, oldest first:',
        '- @alice on `src/a.ts` line 12:\n  rename this\n  and test it',
        '- Review by @bob (changes requested):\n  needs a test',
        '- @carol on `src/b.ts` (outdated: the line has changed since):\n  old remark',
      ].join('\n\n'),
    );
  });

  it('says so when the command had no text and there is no review', () => {
    expect(renderFeedbackInstructions('', [])).toBe('(no text after the command)');
  });
});
