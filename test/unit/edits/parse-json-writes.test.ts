import { MAX_FILE_BYTES, parseJsonWrites } from '../../../src/edits/parse-json-writes.js';
import { sha256 } from '../../../src/edits/sha256.js';
import { AutofixError } from '../../../src/errors.js';

const EMPTY = sha256('');
const proposal = (writes: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ summary: 'fix', writes, ...extra });

function refusal(text: string): AutofixError {
  try {
    parseJsonWrites(text);
  } catch (err) {
    expect(err).toBeInstanceOf(AutofixError);
    expect((err as AutofixError).code).toBe('LLM_OUTPUT_INVALID');
    return err as AutofixError;
  }
  throw new Error('expected a refusal');
}

describe('parseJsonWrites', () => {
  it('turns writes into a change set carrying each base hash', () => {
    const parsed = parseJsonWrites(
      proposal([{ path: './src/a.ts', base_sha256: EMPTY.toUpperCase(), content: 'x\n' }]),
    );
    expect(parsed.changeSet).toEqual({
      files: [{ path: 'src/a.ts', op: 'write', content: 'x\n', baseSha256: EMPTY }],
      notes: { user: ['fix'], debug: [] },
    });
  });

  it('reads JSON inside a markdown fence or surrounded by prose', () => {
    const json = proposal([{ path: 'a', base_sha256: EMPTY, content: '' }]);
    expect(parseJsonWrites(`\`\`\`json\n${json}\n\`\`\``).changeSet.files).toHaveLength(1);
    expect(parseJsonWrites(`Here you go:\n${json}\nDone.`).changeSet.files).toHaveLength(1);
  });

  it.each([
    ['text that is not JSON', 'writes: none', 'is not valid JSON'],
    [
      'an unknown key',
      proposal([{ path: 'a', base_sha256: EMPTY, content: '' }], { files: [] }),
      '(top level): unknown key "files"',
    ],
    [
      'an unknown key in a write',
      proposal([{ path: 'a', base_sha256: EMPTY, content: '', mode: 1 }]),
      'writes[0]: unknown key "mode"',
    ],
    ['empty writes', proposal([]), 'writes: must list at least one file'],
    [
      'a missing summary',
      JSON.stringify({ writes: [{ path: 'a', base_sha256: EMPTY, content: '' }] }),
      'summary:',
    ],
    [
      'a malformed base_sha256',
      proposal([{ path: 'a', base_sha256: 'abc', content: '' }]),
      'writes[0].base_sha256: must be the 64-character hex sha256',
    ],
    ['a missing content', proposal([{ path: 'a', base_sha256: EMPTY }]), 'writes[0].content'],
    [
      'a file over 200 KB',
      proposal([{ path: 'a', base_sha256: EMPTY, content: 'x'.repeat(MAX_FILE_BYTES + 1) }]),
      'over the 204800-byte limit per file',
    ],
    [
      'more than 500 KB in total',
      proposal(
        [0, 1, 2].map((i) => ({
          path: `f${i}`,
          base_sha256: EMPTY,
          content: 'x'.repeat(180 * 1024),
        })),
      ),
      'over the 512000-byte limit',
    ],
    [
      'binary content',
      proposal([{ path: 'a', base_sha256: EMPTY, content: 'a\u0000b' }]),
      'contains a NUL byte',
    ],
    [
      'the same file twice',
      proposal([
        { path: 'a', base_sha256: EMPTY, content: '' },
        { path: 'a', base_sha256: EMPTY, content: 'x' },
      ]),
      '"a" is written twice',
    ],
  ])('refuses %s', (_, text, message) => {
    const err = refusal(text);
    expect(err.message).toContain(message);
    expect(err.message).toContain('nothing was written');
  });
});
