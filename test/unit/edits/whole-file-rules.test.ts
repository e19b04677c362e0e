import { parseEdits } from '../../../src/edits/parse-edits.js';
import { sha256 } from '../../../src/edits/sha256.js';
import type { AnswerCut } from '../../../src/edits/types.js';
import type { EditFormat } from '../../../src/config/repo-config.js';
import { AutofixError } from '../../../src/errors.js';

/**
 * Issue #33 for the formats that send whole contents or JSON (fenced-files, json-writes,
 * edit-ops): the same two rules as the udiff engine's. A new version with "... rest unchanged"
 * where code was, or one that stops where the file goes on, is refused; a cut-off block or JSON
 * string is refused as cut off, saying where.
 */

const CACHE = `import time


class Cache:
    def __init__(self, ttl=60):
        self.ttl = ttl
        self.items = {}

    def get(self, key):
        entry = self.items.get(key)
        if entry is None:
            return None
        value, stored = entry
        if time.time() - stored > self.ttl:
            del self.items[key]
            return None
        return value

    def put(self, key, value):
        self.items[key] = (value, time.time())

    # ... more helpers below ...
    def clear(self):
        self.items.clear()
`;

const FIXED = CACHE.replace('> self.ttl:', '>= self.ttl:');

const readFile = (path: string) => Promise.resolve(path === 'cache.py' ? CACHE : undefined);

async function refusal(format: EditFormat, text: string): Promise<AutofixError> {
  try {
    await parseEdits(format, text, readFile);
  } catch (err) {
    expect(err).toBeInstanceOf(AutofixError);
    return err as AutofixError;
  }
  throw new Error('expected a refusal');
}

const cutOf = (err: AutofixError): AnswerCut | undefined =>
  (err.details as { cut?: AnswerCut } | undefined)?.cut;

const fenced = (content: string): string => `^^^cache.py\n${content}^^^end\n`;
const jsonWrite = (content: string): string =>
  JSON.stringify({
    summary: 'expire at the ttl',
    writes: [{ path: 'cache.py', base_sha256: sha256(CACHE), content }],
  });

/** The file rewritten lazily: the fix made, `put` and `clear` replaced by a comment. */
const LAZY = `${FIXED.slice(0, FIXED.indexOf('    def put'))}    # ... rest of the class unchanged ...\n`;

describe('whole-file formats', () => {
  it.each([
    ['fenced-files', fenced(LAZY)],
    ['json-writes', jsonWrite(LAZY)],
  ] as const)(
    '%s: refuses "... rest unchanged" where code was, naming the lines',
    async (f, text) => {
      const err = await refusal(f, text);
      expect(err.code).toBe('INVALID_DIFF');
      expect(err.message).toContain(
        '`cache.py`: your new version replaces real code with a placeholder: line 19, `# ... rest of the class unchanged ...`',
      );
      expect(err.message).toContain('        self.items[key] = (value, time.time())');
      expect(err.message).toContain('        self.items.clear()');
    },
  );

  it('fenced-files: refuses a placeholder that a blank line the file keeps separates from the code it replaces', async () => {
    // The blank line before `put` goes with the placeholder: a line diff keeps it between the two.
    const lazy = FIXED.replace(
      '        return value\n\n    def put(self, key, value):\n        self.items[key] = (value, time.time())\n',
      '        return value\n    # ...\n',
    );
    const err = await refusal('fenced-files', fenced(lazy));
    expect(err.message).toContain('`# ...`');
    expect(err.message).toContain('        self.items[key] = (value, time.time())');
  });

  it("fenced-files: refuses a placeholder for a closing brace that a line diff pairs with the new code's", async () => {
    const visit = [
      'function visit(item, path) {',
      '    const ctrl = callVisitor(item, path);',
      "    return typeof ctrl === 'function' ? ctrl(item, path) : ctrl;",
      '}',
      '',
      'exports.visit = visit;',
      '',
    ].join('\n');
    const lazy = visit.replace(
      '}\n',
      "// ... rest of the file unchanged ...\nfunction cacheRef(input) {\n  if (input === undefined) {\n    return 'payload';\n  }\n  return String(input);\n}\n",
    );
    const read = (path: string) => Promise.resolve(path === 'cst-visit.js' ? visit : undefined);
    const err = await parseEdits('fenced-files', `^^^cst-visit.js\n${lazy}^^^end\n`, read).then(
      () => undefined,
      (e: unknown) => e as AutofixError,
    );
    expect(err?.message).toContain('`// ... rest of the file unchanged ...`');
    expect(err?.message).toContain('which your version does not keep:\n    }');
  });

  it('fenced-files: refuses a placeholder that a line diff set apart from what it drops by a brace it could as well have removed', async () => {
    // The placeholder stands for `}` and the next block; the diff keeps the first `  }` (below the
    // placeholder) and removes its twin at the end of the block instead.
    const check = [
      'function check(node) {',
      '  if (relational(node)) {',
      '    usage(node.right);',
      '  }',
      '  if (arithmetic(node)) {',
      '    unsafe(node.right);',
      '  }',
      '}',
      '',
    ].join('\n');
    const lazy = check.replace(
      '  }\n  if (arithmetic(node)) {\n    unsafe(node.right);\n',
      '  // ... existing code ...\n',
    );
    const read = (path: string) => Promise.resolve(path === 'check.js' ? check : undefined);
    const err = await parseEdits('fenced-files', `^^^check.js\n${lazy}^^^end\n`, read).then(
      () => undefined,
      (e: unknown) => e as AutofixError,
    );
    expect(err?.message).toContain('`// ... existing code ...`');
    expect(err?.message).toContain('    unsafe(node.right);');
  });

  it('edit-ops: refuses a replacement whose content elides what its target held', async () => {
    const text = JSON.stringify({
      operations: [
        {
          file_path: 'cache.py',
          operation: 'edit',
          edit_type: 'replace',
          target:
            '        value, stored = entry\n        if time.time() - stored > self.ttl:\n            del self.items[key]\n',
          content: '        value, stored = entry\n        # ... existing code ...\n',
        },
      ],
    });
    const err = await refusal('edit-ops', text);
    expect(err.message).toContain('`# ... existing code ...`');
    expect(err.message).toContain('        if time.time() - stored > self.ttl:');
  });

  it('fenced-files: refuses a block the answer never closes as cut off, naming the file', async () => {
    const err = await refusal('fenced-files', `^^^cache.py\n${FIXED.slice(0, 200)}`);
    expect(err.code).toBe('LLM_OUTPUT_INVALID');
    expect(err.message).toContain(
      'is never closed with `^^^end`: the answer ends inside it, so it looks cut off',
    );
    expect(cutOf(err)).toEqual(expect.objectContaining({ path: 'cache.py', line: 1 }));
  });

  it('fenced-files: refuses a closed block whose file stops in the middle of a line', async () => {
    const cut = FIXED.slice(0, FIXED.indexOf('value, time.time())') + 10);
    const err = await refusal('fenced-files', fenced(`${cut}\n`));
    expect(err.message).toContain('`cache.py`: your new version looks cut off');
    expect(err.message).toContain('its last line is the start of a line of the current file');
  });

  it.each(['json-writes', 'edit-ops'] as const)(
    '%s: refuses JSON that stops inside a string as cut off, naming the file',
    async (format) => {
      const text =
        format === 'json-writes'
          ? jsonWrite(FIXED).slice(0, 300)
          : JSON.stringify({
              operations: [
                {
                  file_path: 'cache.py',
                  operation: 'edit',
                  edit_type: 'full_replace',
                  content: FIXED,
                },
              ],
            }).slice(0, 300);
      const err = await refusal(format, text);
      expect(err.code).toBe('LLM_OUTPUT_INVALID');
      expect(err.message).toContain('Your answer looks cut off: its JSON ends inside a string');
      expect(err.message).toContain('the last file it names is `cache.py`');
      expect(cutOf(err)?.path).toBe('cache.py');
    },
  );

  it.each([
    ['fenced-files', fenced(FIXED)],
    ['json-writes', jsonWrite(FIXED)],
  ] as const)(
    "%s: writes a complete new version that keeps the file's own `# ...` comment",
    async (f, text) => {
      const parsed = await parseEdits(f, text, readFile);
      expect(parsed.changeSet.files[0]?.content).toBe(FIXED);
    },
  );

  it('fenced-files: writes a version that adds a `# TODO: ...` next to a rewritten line', async () => {
    const next = FIXED.replace(
      '        self.items[key] = (value, time.time())\n',
      '        # TODO: ... cap the number of items\n        self.items[key] = (value, time.monotonic())\n',
    );
    const parsed = await parseEdits('fenced-files', fenced(next), readFile);
    expect(parsed.changeSet.files[0]?.content).toBe(next);
  });

  it('fenced-files: writes a version that deletes the last method on purpose', async () => {
    const next = FIXED.slice(0, FIXED.indexOf('\n    # ... more helpers below ...')) + '\n';
    const parsed = await parseEdits('fenced-files', fenced(next), readFile);
    expect(parsed.changeSet.files[0]?.content).toBe(next);
  });
});
