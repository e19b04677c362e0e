import { formatFileReplacements } from '../../../src/llm/format-file-replacements.js';

describe('formatFileReplacements', () => {
  it('shows only the newest version of each file, removals included', () => {
    const text = formatFileReplacements([
      { path: 'a.ts', content: 'old\n' },
      { path: 'b.ts', content: 'b\n' },
      { path: 'a.ts', content: 'new\n' },
      { path: 'c.ts' },
    ]);
    expect(text).not.toContain('old');
    expect(text).toBe(
      '--- FILE REPLACEMENT b.ts ---\n```\nb\n```\n\n--- FILE REPLACEMENT a.ts ---\n```\nnew\n```\n\n--- FILE REMOVED c.ts ---',
    );
  });

  it('fences content that itself contains fences with a longer fence', () => {
    expect(formatFileReplacements([{ path: 'README.md', content: '```js\nx\n```\n' }])).toContain(
      '````\n```js\nx\n```\n````',
    );
  });

  it('says when nothing changed', () => {
    expect(formatFileReplacements([])).toBe('(no files changed yet)');
  });
});
