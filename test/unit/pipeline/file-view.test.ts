import { createHash } from 'node:crypto';
import type { EditFormat } from '../../../src/config/repo-config.js';
import type { FixPlan } from '../../../src/contracts.js';
import { countTokens } from '../../../src/llm/count-tokens.js';
import { termQuery } from '../../../src/context/split-words.js';
import {
  codeAgentData,
  codeFixerData,
  type PromptBase,
} from '../../../src/pipeline/code/code-prompts.js';
import {
  CHANGED_FILES_TOKENS,
  MIN_REGION_TOKENS,
  NO_FOCUS,
  REGION_TOKENS,
  viewFile,
  viewFiles,
} from '../../../src/pipeline/code/file-view.js';
import { referencedLines, touchedRanges } from '../../../src/pipeline/code/view-focus.js';
import { changelog, readView } from '../../helpers/large-file.js';

const big = changelog(120_000);
const bigLines = big.replace(/\n$/, '').split('\n');
const lineOf = (text: string): number => bigLines.findIndex((l) => l.includes(text)) + 1;

/** `count` lines of TypeScript, about 60 bytes each. */
const code = (count: number, special: Record<number, string> = {}): string =>
  Array.from(
    { length: count },
    (_, i) => special[i + 1] ?? `export const value${i + 1} = compute(${i + 1}, 'item-${i + 1}');`,
  ).join('\n') + '\n';

describe('viewFile', () => {
  it('shows a small file whole, exactly as it is', () => {
    const content = code(300); // ~17 KB, under the whole-file limit
    expect(viewFile(content, { ...NO_FOCUS, ranges: [[10, 12]] })).toEqual({
      text: content,
      whole: true,
      lines: 300,
      shown: [[1, 300]],
    });
  });

  it('cuts a large file to the regions around the plan range, with true line numbers and cut notes', () => {
    const target = lineOf('widget option 700 ');
    const view = viewFile(big, { ...NO_FOCUS, ranges: [[target, target + 2]] });
    expect(view.whole).toBe(false);
    const shown = readView(view.text, big); // every line at its number, every gap marked
    expect(shown).toEqual(expect.arrayContaining([1, target, target + 1, target + 2]));
    expect(shown.length).toBeLessThan(bigLines.length / 5);
    expect(view.text.split('\n')[0]).toBe(
      `⋯ ${bigLines.length} lines (117 KB), too large to show whole: only lines ${view.shown
        .map(([a, b]) => `${a}-${b}`)
        .join(', ')} are shown ⋯`,
    );
    const [head, region] = view.shown;
    expect(head?.[0]).toBe(1);
    expect(region?.[0]).toBeLessThan(target);
    expect(view.text).toContain(
      `\n⋯ lines ${(head?.[1] ?? 0) + 1}-${(region?.[0] ?? 0) - 1} not shown ⋯\n`,
    );
    expect(view.text).toContain(
      `\n⋯ lines ${(region?.[1] ?? 0) + 1}-${bigLines.length} not shown ⋯\n`,
    );
    expect(countTokens(view.text)).toBeLessThanOrEqual(REGION_TOKENS);
  });

  it('centres on the lines a failure points at and the lines naming the issue identifiers', () => {
    const content = code(3000, { 2800: 'export function parseConfigFile(text: string) {}' });
    const view = viewFile(content, {
      ...NO_FOCUS,
      lines: [1500],
      identifiers: ['parseConfigFile'],
      terms: termQuery('parse config file'),
    });
    const shown = readView(view.text, content);
    expect(shown).toEqual(expect.arrayContaining([1, 1500, 2800]));
    expect(view.text).toContain('\nexport function parseConfigFile(text: string) {}\n');
  });

  it('shows a file whole when no line of it fits the cap (one huge generated line)', () => {
    const minified = `${'var a=1;'.repeat(10_000)}\n`;
    expect(viewFile(minified, { ...NO_FOCUS, ranges: [[1, 1]] })).toMatchObject({
      text: minified,
      whole: true,
    });
  });

  it('shows the head of the file when nothing else points anywhere', () => {
    const view = viewFile(big, NO_FOCUS);
    expect(view.shown).toEqual([[1, expect.any(Number) as number]]);
    readView(view.text, big);
  });
});

describe('viewFiles', () => {
  it('keeps several large changed files within one budget, and small files whole', () => {
    const small = code(40);
    const files = [changelog(60_000), small, changelog(90_000), code(2500)].map((content) => ({
      content,
      focus: { ...NO_FOCUS, ranges: [[700, 702]] as [number, number][] },
    }));
    const views = viewFiles(files);
    expect(views.map((v) => v.whole)).toEqual([false, true, false, false]);
    expect(views[1]?.text).toBe(small);
    const total = views.reduce((sum, v) => sum + countTokens(v.text), 0);
    expect(total).toBeLessThanOrEqual(CHANGED_FILES_TOKENS);
    views.forEach((view, i) => {
      if (view.whole) return;
      expect(readView(view.text, files[i]?.content ?? '')).toEqual(
        expect.arrayContaining([700, 701, 702]),
      );
    });
  });

  it('cuts files that would each be shown whole when together they exceed the budget', () => {
    const files = Array.from({ length: 4 }, () => ({ content: code(300), focus: NO_FOCUS }));
    expect(viewFile(files[0]?.content ?? '', NO_FOCUS).whole).toBe(true);
    const views = viewFiles(files); // whole alone, not all four together
    expect(views.every((v) => !v.whole)).toBe(true);
    expect(views.reduce((sum, v) => sum + countTokens(v.text), 0)).toBeLessThanOrEqual(
      CHANGED_FILES_TOKENS,
    );
  });

  it('shows every file at least a minimal region when many share the budget', () => {
    const files = Array.from({ length: 25 }, () => ({ content: code(160), focus: NO_FOCUS }));
    const views = viewFiles(files);
    for (const view of views) {
      expect(view.whole).toBe(false);
      const tokens = countTokens(view.text);
      expect(tokens).toBeGreaterThan(MIN_REGION_TOKENS / 2);
      expect(tokens).toBeLessThanOrEqual(MIN_REGION_TOKENS);
    }
  });
});

describe('view focus', () => {
  it('finds the lines a change added and the places it removed lines', () => {
    expect(touchedRanges('a\nb\nc\nd\n', 'a\nB\nc\nd\nE\n')).toEqual([
      [1, 2],
      [2, 2],
      [5, 5],
    ]);
    expect(touchedRanges(undefined, 'new\n')).toEqual([]);
  });

  it('reads the lines of one file that tool output points at', () => {
    const output = [
      'src/a.ts(12,5): error TS2304: Cannot find name',
      '/tmp/job/src/a.ts:40:3 - error',
      '  File "src/a.ts", line 7, in main',
      'lib/src/a.tsx:99 other file',
      'src/a.ts.map:5 other file',
      'src/b.ts:3 other file',
    ].join('\n');
    expect(referencedLines(output, 'src/a.ts')).toEqual([7, 12, 40]);
  });
});

describe('code agent and fixer data', () => {
  const plan: FixPlan = {
    branch_name: 'fix/1-changelog',
    commit_type: 'docs',
    scope: 'changelog',
    plan_steps: [{ id: '1', description: 'Correct the entry of widget option 700.' }],
    file_changes: [{ path: 'CHANGELOG.md', operation: 'MODIFY', line_range: [1470, 1472] }],
    validation_commands: [],
  } as FixPlan;
  const base = (editFormat?: EditFormat): PromptBase => ({
    issue: { repository: 'acme/widgets', number: 1, title: 'Wrong entry', body: 'Option 700.' },
    plan,
    style: { indent_style: 'space', indent_size: 2, end_of_line: 'lf', insert_final_newline: true },
    codeContext: '(none)',
    editFormatInstructions: 'Answer with a unified diff.',
    ...(editFormat ? { editFormat } : {}),
  });
  const change = plan.file_changes[0]!;
  const sha256 = createHash('sha256').update(big).digest('hex');

  it.each(['udiff', 'edit-ops'] as const)(
    'shows %s the regions of a large file, hashed whole',
    (format) => {
      const data = codeAgentData(base(format), change, big);
      expect(data.file_sha256).toBe(sha256);
      expect(readView(data.file_content as string, big)).toEqual(
        expect.arrayContaining([1470, 1471, 1472]),
      );
    },
  );

  it.each([
    ['fenced-files', 'fenced-files'],
    ['json-writes', 'json-writes'],
    ['an unknown format', undefined],
  ] as const)('shows %s the whole file: the answer writes it back whole', (_label, format) => {
    expect(codeAgentData(base(format), change, big).file_content).toBe(big);
    const fixer = codeFixerData(base(format), {
      attempt: 1,
      maxAttempts: 2,
      brief: { stage: 'validate', code: 'X', command: 'lint', exit_code: 1, excerpt: '' },
      changed: [{ path: 'CHANGELOG.md', content: big }],
      debugNotes: [],
      allowAmendments: false,
    });
    expect(fixer.changed_files as string).toContain(big);
  });

  it('shows the fixer the lines changed so far and the lines the failure names', () => {
    const latest = big.replace('widget option 900 ', 'widget option nine hundred ');
    const fixer = codeFixerData(base('udiff'), {
      attempt: 1,
      maxAttempts: 2,
      brief: {
        stage: 'validate',
        code: 'VALIDATION_FAILED',
        command: 'markdownlint',
        exit_code: 1,
        excerpt: 'CHANGELOG.md:2100 MD013/line-length',
      },
      changed: [{ path: 'CHANGELOG.md', content: latest }],
      debugNotes: [],
      allowAmendments: false,
      originals: new Map([['CHANGELOG.md', big]]),
    });
    const text = fixer.changed_files as string;
    const fenced = /^--- FILE REPLACEMENT CHANGELOG\.md ---\n(`{3,})\n([\s\S]*?)\n\1$/.exec(text);
    expect(fenced).not.toBeNull();
    const shown = readView(`${fenced?.[2] ?? ''}\n`, latest);
    expect(shown).toEqual(expect.arrayContaining([lineOf('widget option 900 '), 2100]));
  });
});
