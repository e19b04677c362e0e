import { parseFencedFiles } from '../../../src/edits/parse-fenced-files.js';
import { AutofixError } from '../../../src/errors.js';

function refusal(text: string): AutofixError {
  try {
    parseFencedFiles(text);
  } catch (err) {
    expect(err).toBeInstanceOf(AutofixError);
    expect((err as AutofixError).code).toBe('LLM_OUTPUT_INVALID');
    return err as AutofixError;
  }
  throw new Error('expected a refusal');
}

describe('parseFencedFiles', () => {
  it('reads file blocks, deletions and both kinds of notes', () => {
    const parsed = parseFencedFiles(
      [
        'Sure.',
        '&&&start',
        'I fixed the loop.',
        '&&&end',
        '^^^src/main.rs',
        'fn main() {}',
        '^^^end',
        '^^^old.rs',
        '^^^delete',
        '%%%start',
        'watch the borrow checker',
        '%%%end',
      ].join('\n'),
    );
    expect(parsed.changeSet).toEqual({
      files: [
        { path: 'src/main.rs', op: 'write', content: 'fn main() {}\n' },
        { path: 'old.rs', op: 'delete' },
      ],
      notes: { user: ['I fixed the loop.'], debug: ['watch the borrow checker'] },
    });
    expect(parsed.noChange).toBeUndefined();
  });

  it('allows an empty file and tolerates unusual whitespace around markers', () => {
    const parsed = parseFencedFiles(
      '  ^^^ src/empty.txt \n\t^^^end  \n^^^src/a.ts\r\nx\r\n   ^^^END\r\n',
    );
    expect(parsed.changeSet.files).toEqual([
      { path: 'src/empty.txt', op: 'write', content: '' },
      { path: 'src/a.ts', op: 'write', content: 'x\n' },
    ]);
  });

  it('drops a markdown fence wrapped around a whole code file', () => {
    const parsed = parseFencedFiles('^^^src/a.ts\n```ts\nconst a = 1;\n```\n^^^end\n');
    expect(parsed.changeSet.files[0]?.content).toBe('const a = 1;\n');
  });

  it('reports $$$ as no change needed', () => {
    const parsed = parseFencedFiles('$$$start\nAlready fixed upstream.\n$$$end\n');
    expect(parsed.noChange).toBe('Already fixed upstream.');
    expect(parsed.changeSet.files).toEqual([]);
  });

  it.each([
    ['an unterminated file block', '^^^src/a.ts\ncode\n', 'is never closed with `^^^end`'],
    [
      'an unterminated note',
      '&&&start\nhello\n^^^a.ts\nx\n^^^end\n',
      '`&&&start` at line 1 is never closed',
    ],
    [
      'an unterminated debug note',
      '^^^a.ts\nx\n^^^end\n%%%start\nhm\n',
      '`%%%start` at line 4 is never closed',
    ],
    ['an unterminated $$$ block', '$$$start\nnothing\n', '`$$$start` at line 1 is never closed'],
    [
      'a stray end marker',
      '^^^a.ts\nx\n^^^end\n&&&end\n',
      '`&&&end` at line 4 has no matching `&&&start`',
    ],
    [
      'a file block nested in a file block',
      '^^^a.ts\n^^^b.ts\nx\n^^^end\n',
      '`^^^b.ts` at line 2 starts inside the block for `a.ts`',
    ],
    [
      'a note nested in a note',
      '&&&start\n&&&start\nx\n&&&end\n&&&end\n^^^a.ts\n^^^end\n',
      'opens a block inside the one opened at line 1',
    ],
    [
      'a note inside a file block',
      '^^^a.ts\n&&&start\nx\n&&&end\n^^^end\n',
      'overlap; blocks must not overlap or nest',
    ],
    [
      'overlapping blocks of two kinds',
      '&&&start\n%%%start\n&&&end\n%%%end\n^^^a.ts\n^^^end\n',
      'overlap',
    ],
    [
      'two versions of one file',
      '^^^a.ts\nx\n^^^end\n^^^./a.ts\ny\n^^^end\n',
      '`a.ts` has two versions (lines 1 and 4)',
    ],
    [
      'a delete after content',
      '^^^a.ts\nx\n^^^delete\n',
      '`^^^delete` at line 3 must come right after `^^^a.ts`',
    ],
    [
      '$$$ together with files',
      '$$$start\nfine\n$$$end\n^^^a.ts\nx\n^^^end\n',
      'send either file blocks or `$$$`, not both',
    ],
    [
      'neither files nor $$$',
      '&&&start\nI looked around.\n&&&end\n',
      'has no file blocks and no `$$$` block',
    ],
    ['a file marker without a path', '^^^\nx\n^^^end\n', 'names no file'],
  ])('refuses %s', (_, text, message) => {
    const err = refusal(text);
    expect(err.message).toContain(message);
    expect(err.message).toContain('Format: `^^^path/to/file`');
  });

  it('lists every problem at once', () => {
    const err = refusal('^^^a.ts\nx\n^^^end\n^^^a.ts\ny\n^^^end\n&&&end\n');
    expect((err.details as { errors: string[] }).errors).toHaveLength(2);
  });
});
