/**
 * The ranking's reasons for the run page: prepareContext keeps the first ranked files with their
 * reasons (`top`), bounded, and triage carries them in its output (`TriageResult.ranked`).
 */
import { MAX_RANKED_NOTES, rankedNotes } from '../../../src/context/ranked-notes.js';
import { prepareContext } from '../../../src/pipeline/prepare-context.js';
import { createRepo, type TestRepo } from '../../helpers/repo-builder.js';

let repo: TestRepo;
beforeAll(() => {
  repo = createRepo({
    files: {
      'src/slug.js': 'export function slugify(text) {\n  return text.replace(" ", "-");\n}\n',
      'src/other.js': 'export const other = 1;\n',
    },
  });
});
afterAll(() => repo.cleanup());

describe('the ranking reasons a run keeps', () => {
  it('names the files the issue points at, with why', async () => {
    const context = await prepareContext(
      { worktree: repo.dir },
      { repository: 'demo', number: 1, title: 'slugify() replaces only one space', body: '' },
    );
    const first = context.top?.[0];
    expect(first?.path).toBe('src/slug.js');
    expect(first?.reasons.join(' ')).toMatch(/slugify/);
  });

  it('keeps at most 20 files, 5 reasons each, 200 characters a reason', () => {
    const files = Array.from({ length: 50 }, (_, i) => ({
      path: `f${i}.js`,
      reasons: Array.from({ length: 9 }, () => 'x'.repeat(500)),
    }));
    const notes = rankedNotes(files);
    expect(notes).toHaveLength(MAX_RANKED_NOTES);
    expect(notes[0]!.reasons).toHaveLength(5);
    expect(notes[0]!.reasons[0]).toHaveLength(200);
    expect(JSON.stringify(notes).length).toBeLessThan(25_000);
  });
});
