import { applyUnifiedDiff } from '../../../src/edits/apply-unified-diff.js';
import { isElisionMarker } from '../../../src/edits/is-elision-marker.js';
import { parseUnifiedDiff } from '../../../src/edits/parse-unified-diff.js';
import { refusal } from '../../helpers/refusal.js';

/**
 * Issue #33: an added placeholder (`# ... existing code ...`) standing where a hunk removes real
 * code is refused with the hunk and the lines it would delete; comments that merely contain
 * "..." (or look like placeholders) pass, told apart by what the hunk removes. The "must pass"
 * fixtures are quoted from real files on this machine (js-yaml's dumper.js, CPython's
 * _pydecimal.py, sysconfig.py and typing.py).
 */

const apply = (path: string, file: string, diff: string) =>
  applyUnifiedDiff(path, file, parseUnifiedDiff(diff)[0]!.hunks).after;

const udiff = (path: string, lines: readonly string[]): string =>
  [`--- a/${path}`, `+++ b/${path}`, '@@ @@', ...lines, ''].join('\n');

const RETRY = `def retry(func, attempts=3, delay=0.5):
    """Call func until it succeeds, at most attempts times."""
    last = None
    for attempt in range(attempts):
        try:
            return func()
        except OSError as exc:
            last = exc
            log.warning("attempt %d failed: %s", attempt, exc)
            time.sleep(delay * (2 ** attempt))
    raise RetryError(attempts) from last


def once(func):
    return retry(func, attempts=1)
`;

const ROUTER = `export function route(req, res) {
  const url = new URL(req.url, 'http://localhost');
  if (url.pathname === '/health') {
    res.writeHead(200);
    res.end('ok');
    return;
  }
  const handler = handlers.get(url.pathname);
  if (!handler) {
    res.writeHead(404);
    res.end();
    return;
  }
  handler(req, res);
}
`;

describe('a lazy hunk', () => {
  it('is refused with the hunk and the lines it would delete (Python, `# ... existing code ...`)', () => {
    const diff = udiff('net/retry.py', [
      ' def retry(func, attempts=3, delay=0.5):',
      '     """Call func until it succeeds, at most attempts times."""',
      '-    last = None',
      '-    for attempt in range(attempts):',
      '-        try:',
      '-            return func()',
      '-        except OSError as exc:',
      '-            last = exc',
      '-            log.warning("attempt %d failed: %s", attempt, exc)',
      '-            time.sleep(delay * (2 ** attempt))',
      '+    last = None',
      '+    for attempt in range(attempts):',
      '+        # ... existing code ...',
      '+            time.sleep(min(delay * (2 ** attempt), 30))',
      '     raise RetryError(attempts) from last',
    ]);
    const err = refusal(() => apply('net/retry.py', RETRY, diff));
    expect(err.code).toBe('INVALID_DIFF');
    expect(err.message).toContain(
      'net/retry.py: hunk 1 (`@@ @@`) replaces real code with a placeholder: the added line `# ... existing code ...`',
    );
    expect(err.message).toContain('+        # ... existing code ...');
    expect(err.message).toContain(
      'Applying it would delete these lines and leave the comment:\n' +
        '    -        try:\n' +
        '    -            return func()\n' +
        '    -        except OSError as exc:\n' +
        '    -            last = exc\n' +
        '    -            log.warning("attempt %d failed: %s", attempt, exc)',
    );
  });

  it.each([
    '  // rest of the function unchanged',
    '  // ... existing code ...',
    '  /* ... */',
    '  // …',
  ])('is refused when `%s` ends a rewritten JavaScript function', (marker) => {
    const diff = udiff('src/router.js', [
      '-export function route(req, res) {',
      "-  const url = new URL(req.url, 'http://localhost');",
      "-  if (url.pathname === '/health') {",
      '-    res.writeHead(200);',
      "-    res.end('ok');",
      '-    return;',
      '-  }',
      '-  const handler = handlers.get(url.pathname);',
      '+export function route(req, res) {',
      "+  const url = new URL(req.url, 'http://localhost');",
      "+  if (url.pathname === '/health' || url.pathname === '/healthz') {",
      '+    res.writeHead(200);',
      "+    res.end('ok');",
      '+    return;',
      '+  }',
      `+${marker}`,
      '   if (!handler) {',
    ]);
    const err = refusal(() => apply('src/router.js', ROUTER, diff));
    expect(err.message).toContain('replaces real code with a placeholder');
    expect(err.message).toContain('    -  const handler = handlers.get(url.pathname);');
  });

  it("is refused when a bare `...` stands for a Python function's body", () => {
    const diff = udiff('net/retry.py', [
      '-def once(func):',
      '-    return retry(func, attempts=1)',
      '+def once(func, delay=0.5):',
      '+    ...',
    ]);
    const err = refusal(() => apply('net/retry.py', RETRY, diff));
    expect(err.message).toContain('    -    return retry(func, attempts=1)');
  });

  it('is refused when a comment stands where a class body `pass` was', () => {
    const codec =
      'class StreamWriter(Codec, codecs.StreamWriter):\n    pass\n\nclass StreamReader(Codec, codecs.StreamReader):\n    pass\n';
    const diff = udiff('encodings/mac_roman.py', [
      '-class StreamWriter(Codec, codecs.StreamWriter):',
      '-    pass',
      '+class StreamWriter(Codec, codecs.StreamWriter):',
      '+    # rest of the class unchanged',
      ' ',
      ' class StreamReader(Codec, codecs.StreamReader):',
    ]);
    const err = refusal(() => apply('encodings/mac_roman.py', codec, diff));
    expect(err.message).toContain(
      'Applying it would delete these lines and leave the comment:\n    -    pass',
    );
  });
});

describe('a lazy hunk that also adds new code', () => {
  const LOOP = [
    'for (const type of Object.keys(t.ALIAS_KEYS)) {',
    '  if (type.startsWith("_")) continue;',
    '  if (!t.TYPES.includes(type)) t.TYPES.push(type);',
    '}',
    '',
    '//# sourceMappingURL=index.js.map',
    '',
  ].join('\n');
  const HELPER = [
    '+function handlerItem(input) {',
    '+  if (input === undefined || input === null) {',
    "+    return 'target';",
    '+  }',
    '+  return String(input).trim();',
    '+}',
  ];

  it("is refused when the placeholder stands for a closing brace the new code's braces would seem to keep", () => {
    const diff = udiff('lib/index.js', [
      '   if (type.startsWith("_")) continue;',
      '-  if (!t.TYPES.includes(type)) t.TYPES.push(type);',
      '-}',
      '+  if (!t.TYPES.includes(type)) t.TYPES.push(type);',
      '+// ...',
      ...HELPER,
      ' ',
      ' //# sourceMappingURL=index.js.map',
    ]);
    const err = refusal(() => apply('lib/index.js', LOOP, diff));
    expect(err.message).toContain(
      'Applying it would delete these lines and leave the comment:\n    -}',
    );
  });

  it('is refused when the code it stands for comes before lines it keeps in order', () => {
    const flush =
      '  flush(): string[] {\n    if (!this.buffer.length) {\n      return [];\n    }\n    return this.decode("\\n");\n  }\n}\n';
    const diff = udiff('src/line.ts', [
      '   flush(): string[] {',
      '     if (!this.buffer.length) {',
      '       return [];',
      '-    }',
      '-    return this.decode("\\n");',
      '-  }',
      '+    // existing code remains the same',
      '+    return this.decode("\\n");',
      '+  }',
      ...HELPER,
      ' }',
    ]);
    const err = refusal(() => apply('src/line.ts', flush, diff));
    expect(err.message).toContain(
      'Applying it would delete these lines and leave the comment:\n    -    }',
    );
  });
});

describe('a comment that looks like a placeholder', () => {
  it('passes when it replaces nothing: `# see ... for details` beside a rewritten line', () => {
    const diff = udiff('net/retry.py', [
      '         except OSError as exc:',
      '             last = exc',
      '             log.warning("attempt %d failed: %s", attempt, exc)',
      '-            time.sleep(delay * (2 ** attempt))',
      '+            # see ... for details on the cap',
      '+            # TODO: ...',
      '+            time.sleep(min(delay * (2 ** attempt), 30))',
      '     raise RetryError(attempts) from last',
    ]);
    expect(apply('net/retry.py', RETRY, diff)).toContain('            # TODO: ...\n');
  });

  it("passes where it stands only for comments (chardet's `# if we didn't receive …`)", () => {
    const py = [
      '    def get_confidence(self) -> float:',
      "        # if we didn't receive any character in our consideration range,",
      '        # return negative answer',
      '        if self._total_chars <= 0:',
      '            return self.SURE_NO',
      '',
    ].join('\n');
    const diff = udiff('chardistribution.py', [
      '     def get_confidence(self) -> float:',
      "-        # if we didn't receive any character in our consideration range,",
      '-        # return negative answer',
      '-        if self._total_chars <= 0:',
      '+        # ...',
      '+        if self._total_chars <= 9:',
      '             return self.SURE_NO',
    ]);
    expect(apply('chardistribution.py', py, diff)).toContain(
      '        # ...\n        if self._total_chars <= 9:',
    );
  });

  it('passes as a pure insertion: `// TODO: ...`', () => {
    const diff = udiff('src/router.js', [
      '   handler(req, res);',
      '+  // TODO: ... time the handler',
      ' }',
    ]);
    expect(apply('src/router.js', ROUTER, diff)).toContain('  // TODO: ... time the handler\n');
  });

  it("passes in a rewrite that keeps js-yaml's `// rest of the lines`", () => {
    const dumper = [
      "  // If we haven't reached the first content line yet, don't add an extra \\n.",
      "  let prevMoreIndented = string[0] === '\\n' || string[0] === ' '",
      '  let moreIndented',
      '',
      '  // rest of the lines',
      '  let match',
      '  while ((match = lineRe.exec(string))) {',
      '',
    ].join('\n');
    const diff = udiff('lib/dumper.js', [
      "-  let prevMoreIndented = string[0] === '\\n' || string[0] === ' '",
      '-  let moreIndented',
      '-',
      '-  // rest of the lines',
      "+  let prevMoreIndented = string[0] === '\\n' || string[0] === ' ' || string[0] === '\\t'",
      '+  let moreIndented',
      '+',
      '+  // rest of the lines',
      '   let match',
    ]);
    expect(apply('lib/dumper.js', dumper, diff)).toContain("string[0] === '\\t'\n");
  });

  it("passes in a rewrite that keeps the openai SDK's `*   // ...` and appends to a short line", () => {
    const jobs = [
      '    /**',
      "     * List your organization's fine-tuning jobs",
      '     *',
      '     * @example',
      '     * ```ts',
      '     * // Automatically fetches more pages as needed.',
      '     * for await (const fineTuningJob of client.fineTuning.jobs.list()) {',
      '     *   // ...',
      '     * }',
      '     * ```',
      '     */',
      '    list(',
      '      query?: JobListParams | null | undefined,',
      '',
    ].join('\n');
    const diff = udiff('jobs.ts', [
      '-     * for await (const fineTuningJob of client.fineTuning.jobs.list()) {',
      '-     *   // ...',
      '-     * }',
      '-     * ```',
      '-     */',
      '-    list(',
      '+     * for await (const fineTuningJob of client.fineTuning.jobs.list()) {',
      '+     *   // ...',
      '+     * }',
      '+     * ```',
      '+     */',
      '+    list( // paged',
      '       query?: JobListParams | null | undefined,',
    ]);
    expect(apply('jobs.ts', jobs, diff)).toContain('    list( // paged\n');
  });

  it('passes in a rewrite that adds a comment to a closing brace (typescript-eslint shape)', () => {
    const js = [
      '        if (isCI) {',
      "            return !process.argv.includes('--fix');",
      '        }',
      '    }',
      '    return false;',
      '',
    ].join('\n');
    const diff = udiff('inferSingleRun.js', [
      "-            return !process.argv.includes('--fix');",
      '-        }',
      '-    }',
      "+            return !process.argv.includes('--fix');",
      '+        // TODO: ...',
      '+        } // reviewed',
      '+    }',
      '     return false;',
    ]);
    expect(apply('inferSingleRun.js', js, diff)).toContain('        } // reviewed\n    }\n');
  });

  it("passes in a rewrite of a doctest that keeps _pydecimal.py's `...` lines", () => {
    const doc = [
      '>>> getcontext().traps[DivisionByZero] = 1',
      '>>> print(dig / 0)',
      'Traceback (most recent call last):',
      '  ...',
      '  ...',
      '  ...',
      'decimal.DivisionByZero: x / 0',
      '>>> c = Context()',
      '',
    ].join('\n');
    const diff = udiff('decimal_doc.py', [
      '->>> print(dig / 0)',
      '-Traceback (most recent call last):',
      '-  ...',
      '-  ...',
      '-  ...',
      '-decimal.DivisionByZero: x / 0',
      '+>>> print(dig / 0)',
      '+Traceback (most recent call last):',
      '+  ...',
      '+  ...',
      '+  ...',
      '+decimal.DivisionByZero: division by zero',
      ' >>> c = Context()',
    ]);
    expect(apply('decimal_doc.py', doc, diff)).toContain('division by zero\n');
  });

  it("passes in a rewrite under sysconfig.py's `# ${bar}... and so forth.`", () => {
    const sysconfig = [
      "    # This algorithm does multiple expansion, so if vars['foo'] contains",
      '    # "${bar}", it will expand ${foo} to ${bar}, and then expand',
      "    # ${bar}... and so forth.  This is fine as long as 'vars' comes from",
      '    while True:',
      '        m = _findvar1_rx.search(s) or _findvar2_rx.search(s)',
      '',
    ].join('\n');
    const diff = udiff('sysconfig.py', [
      "-    # ${bar}... and so forth.  This is fine as long as 'vars' comes from",
      '-    while True:',
      "+    # ${bar}... and so forth.  This is fine as long as 'vars' comes from",
      '+    for _ in range(100):',
      '         m = _findvar1_rx.search(s) or _findvar2_rx.search(s)',
    ]);
    expect(apply('sysconfig.py', sysconfig, diff)).toContain('    for _ in range(100):\n');
  });

  it("passes as a Protocol's `...` bodies where nothing real is removed (typing.py's shape)", () => {
    const typing = [
      '@runtime_checkable',
      'class SupportsBytes(Protocol):',
      '    """An ABC with one abstract method __bytes__."""',
      '    __slots__ = ()',
      '',
      '    @abstractmethod',
      '    def __bytes__(self) -> bytes:',
      '        pass',
      '',
    ].join('\n');
    const diff = udiff('typing_stub.py', [
      '     @abstractmethod',
      '     def __bytes__(self) -> bytes:',
      '-        pass',
      '+        ...',
      '+',
      '+    def __len__(self) -> int: ...',
      '+',
      '+    def close(self) -> None:',
      '+        ...',
    ]);
    expect(apply('typing_stub.py', typing, diff)).toContain(
      '    def close(self) -> None:\n        ...\n',
    );
  });
});

describe('isElisionMarker', () => {
  it.each([
    '# ... existing code ...',
    '    // rest of the function unchanged',
    '/* ... */',
    '# …',
    '...',
    '    // existing code remains the same',
    '# ... handle the other cases ...',
    '<!-- rest of the page unchanged -->',
    '{/* ... */}',
    ' * ...',
  ])('takes `%s` for a placeholder', (line) => expect(isElisionMarker(line)).toBe(true));

  it.each([
    '# see ... for details',
    '# Use the existing connection if there is one',
    '// the value stays unchanged if the key exists',
    'const rest = [...items];',
    'def __len__(self) -> int: ...',
    '"""Return ... the value."""',
    '#include <stdio.h>',
    '// Removed the old fallback ...',
  ])('does not take `%s` for a placeholder', (line) => expect(isElisionMarker(line)).toBe(false));
});
