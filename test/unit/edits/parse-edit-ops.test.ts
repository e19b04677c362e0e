import { parseEditOps } from '../../../src/edits/parse-edit-ops.js';
import { AutofixError } from '../../../src/errors.js';

const FILES: Record<string, string> = {
  'src/app.js': 'const a = 1;\nconst b = 2;\nfunction run() {\n  return a + b;\n}\n',
  'src/dup.js': 'x();\ny();\nx();\n',
  'win.txt': 'one\r\ntwo\r\n',
};
const readFile = (path: string) => Promise.resolve(FILES[path]);
const ops = (...operations: unknown[]) => JSON.stringify({ operations });
const edit = (edit_type: string, fields: Record<string, unknown>, file_path = 'src/app.js') => ({
  file_path,
  operation: 'edit',
  edit_type,
  ...fields,
});
const after = async (text: string, path = 'src/app.js') =>
  (await parseEditOps(text, readFile)).changeSet.files.find((f) => f.path === path)?.content;

async function refusal(text: string): Promise<AutofixError> {
  try {
    await parseEditOps(text, readFile);
  } catch (err) {
    expect(err).toBeInstanceOf(AutofixError);
    return err as AutofixError;
  }
  throw new Error('expected a refusal');
}

describe('parseEditOps', () => {
  it.each([
    [
      'replace',
      { target: 'a + b', content: 'a * b' },
      'const a = 1;\nconst b = 2;\nfunction run() {\n  return a * b;\n}\n',
    ],
    [
      'insert_before',
      { target: 'function run', content: '// runs\n' },
      'const a = 1;\nconst b = 2;\n// runs\nfunction run() {\n  return a + b;\n}\n',
    ],
    [
      'insert_after',
      { target: 'const b = 2;\n', content: 'const c = 3;\n' },
      'const a = 1;\nconst b = 2;\nconst c = 3;\nfunction run() {\n  return a + b;\n}\n',
    ],
    [
      'append',
      { content: 'run();' },
      'const a = 1;\nconst b = 2;\nfunction run() {\n  return a + b;\n}\nrun();\n',
    ],
    [
      'prepend',
      { content: "'use strict';" },
      "'use strict';\nconst a = 1;\nconst b = 2;\nfunction run() {\n  return a + b;\n}\n",
    ],
    ['full_replace', { content: 'export {};\n' }, 'export {};\n'],
    [
      'replace_line',
      { line_number: 2, content: 'const b = 3;' },
      'const a = 1;\nconst b = 3;\nfunction run() {\n  return a + b;\n}\n',
    ],
    [
      'insert_at_line',
      { line_number: 3, content: '\n// the runner' },
      'const a = 1;\nconst b = 2;\n\n// the runner\nfunction run() {\n  return a + b;\n}\n',
    ],
  ])('applies %s', async (type, fields, expected) => {
    expect(await after(ops(edit(type, fields)))).toBe(expected);
  });

  it('applies operations in order, creating and deleting files', async () => {
    const parsed = await parseEditOps(
      ops(
        { file_path: 'src/new.js', operation: 'create', content: 'a\n' },
        edit('append', { content: 'b' }, 'src/new.js'),
        { file_path: 'src/dup.js', operation: 'delete' },
      ),
      readFile,
    );
    expect(parsed.changeSet.files.map((f) => [f.path, f.op, f.content])).toEqual([
      ['src/new.js', 'write', 'a\nb\n'],
      ['src/dup.js', 'delete', undefined],
    ]);
    expect(parsed.files.map((f) => f.created)).toEqual([true, false]);
  });

  it('keeps CRLF line endings of a CRLF file', async () => {
    expect(
      await after(
        ops(edit('replace_line', { line_number: 2, content: 'TWO' }, 'win.txt')),
        'win.txt',
      ),
    ).toBe('one\r\nTWO\r\n');
  });

  it('refuses to create a file that exists', async () => {
    const err = await refusal(ops({ file_path: 'src/app.js', operation: 'create', content: 'x' }));
    expect(err.message).toContain('operations[0] (create `src/app.js`): the file already exists');
  });

  it('refuses to edit or delete a missing file', async () => {
    const err = await refusal(ops({ file_path: 'nope.js', operation: 'delete' }));
    expect(err.message).toContain('no such file');
  });

  it('shows the closest lines with their numbers when a target is not found', async () => {
    const err = await refusal(ops(edit('replace', { target: '  return a - b;', content: 'x' })));
    expect(err.code).toBe('INVALID_DIFF');
    expect(err.message).toContain('the target was not found in the file');
    expect(err.message).toContain('    4 |   return a + b;');
    expect(err.message).toContain('replace_line');
  });

  it('lists the line numbers of a target that is not unique', async () => {
    const err = await refusal(
      ops(edit('replace', { target: 'x();', content: 'z();' }, 'src/dup.js')),
    );
    expect(err.message).toContain('the target occurs 2 times (lines 1, 3)');
  });

  it('refuses a line number out of range', async () => {
    const err = await refusal(ops(edit('replace_line', { line_number: 9, content: 'x' })));
    expect(err.message).toContain('line_number 9 is out of range: the file has 5 lines');
  });

  it.each([
    [
      'a missing target',
      ops(edit('replace', { content: 'x' })),
      'operations[0].target: is required for edit_type "replace"',
    ],
    [
      'a missing line number',
      ops(edit('insert_at_line', { content: 'x' })),
      'operations[0].line_number: is required',
    ],
    [
      'a missing edit type',
      ops({ file_path: 'src/app.js', operation: 'edit', content: 'x' }),
      'operations[0].edit_type: is required',
    ],
    ['an unknown edit type', ops(edit('rewrite', { content: 'x' })), 'operations[0].edit_type'],
    ['an unknown field', ops(edit('append', { content: 'x', mode: 'fast' })), 'unknown key "mode"'],
    ['no operations', ops(), 'operations: must list at least one operation'],
    [
      'create without content',
      ops({ file_path: 'n.js', operation: 'create' }),
      'operations[0].content: is required to create a file',
    ],
  ])('refuses %s', async (_, text, message) => {
    const err = await refusal(text);
    expect(err.code).toBe('LLM_OUTPUT_INVALID');
    expect(err.message).toContain(message);
  });
});
