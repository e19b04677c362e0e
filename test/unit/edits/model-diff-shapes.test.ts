import { applyUnifiedDiff } from '../../../src/edits/apply-unified-diff.js';
import { parseUnifiedDiff } from '../../../src/edits/parse-unified-diff.js';
import { refusal } from '../../helpers/refusal.js';

/**
 * The diff shapes of issue 12, on code written the way real projects write it: hunks quoted
 * with a uniform indentation shift, headers without numbers, one line of context where that
 * line repeats, and an insertion sent a second time. Each result is the exact file or a refusal.
 */

const apply = (path: string, file: string, diff: string) =>
  applyUnifiedDiff(path, file, parseUnifiedDiff(diff)[0]!.hunks);

/** A Python module with nested blocks and two functions that share their opening lines. */
const PY = `import re


class Wrapper:
    def __init__(self, width=70, drop_whitespace=True):
        self.width = width
        self.drop_whitespace = drop_whitespace

    def split(self, text):
        chunks = re.split(r"(\\s+)", text)
        return [c for c in chunks if c]

    def wrap(self, text):
        lines = []
        for chunk in self.split(text):
            if self.drop_whitespace and chunk.strip() == "":
                continue
            if lines and len(lines[-1]) + len(chunk) <= self.width:
                lines[-1] += chunk
            else:
                lines.append(chunk)
        return lines


def wrap(text, width=70, **kwargs):
    w = Wrapper(width=width, **kwargs)
    return w.wrap(text)


def fill(text, width=70, **kwargs):
    w = Wrapper(width=width, **kwargs)
    return "\\n".join(w.wrap(text))
`;

/** The change the model means: skip empty chunks inside the loop. */
const PY_FIXED = PY.replace(
  '            if self.drop_whitespace and chunk.strip() == "":\n                continue\n',
  '            if self.drop_whitespace and chunk.strip() == "":\n                continue\n' +
    '            if not chunk:\n                continue\n',
);

const PY_HUNK = [
  '         for chunk in self.split(text):',
  '             if self.drop_whitespace and chunk.strip() == "":',
  '                 continue',
  '+            if not chunk:',
  '+                continue',
  '             if lines and len(lines[-1]) + len(chunk) <= self.width:',
  '                 lines[-1] += chunk',
  '             else:',
];

/** Every line of a hunk (after its prefix) shifted by `shift` (negative: that many removed). */
function shifted(lines: readonly string[], shift: number | 'tab' | '-tab'): string[] {
  return lines.map((l) => {
    const [prefix, text] = [l[0] ?? ' ', l.slice(1)];
    if (text.trim() === '') return l;
    if (shift === 'tab') return `${prefix}\t${text}`;
    if (shift === '-tab') return `${prefix}${text.replace(/^\t/, '')}`;
    return shift >= 0 ? `${prefix}${' '.repeat(shift)}${text}` : `${prefix}${text.slice(-shift)}`;
  });
}

const pyDiff = (header: string, lines: readonly string[]): string =>
  ['--- a/wrapper.py', '+++ b/wrapper.py', header, ...lines, ''].join('\n');

describe('a hunk quoted with a uniform indentation shift', () => {
  it.each([-8, -4, -2, 2, 4, 8])(
    'applies a Python hunk shifted by %i spaces with the file’s indentation',
    (shift) => {
      const result = apply('wrapper.py', PY, pyDiff('@@ -15,6 +15,8 @@', shifted(PY_HUNK, shift)));
      expect(result.after).toBe(PY_FIXED);
      expect(result.hunks[0]?.reindented).toBeDefined();
    },
  );

  it('applies a tab-indented Go hunk quoted one tab deeper or shallower', () => {
    const go = [
      'package cache',
      '',
      'func (c *Cache) Get(key string) (string, bool) {',
      '\tc.mu.Lock()',
      '\tdefer c.mu.Unlock()',
      '\tif v, ok := c.items[key]; ok {',
      '\t\treturn v.value, true',
      '\t}',
      '\treturn "", false',
      '}',
      '',
    ].join('\n');
    const want = go.replace('\t\treturn v.value, true', '\t\tc.hits++\n\t\treturn v.value, true');
    const hunk = [
      ' \tdefer c.mu.Unlock()',
      ' \tif v, ok := c.items[key]; ok {',
      '+\t\tc.hits++',
      ' \t\treturn v.value, true',
      ' \t}',
    ];
    const diff = (lines: string[]) =>
      ['--- a/cache.go', '+++ b/cache.go', '@@ -5,4 +5,5 @@', ...lines, ''].join('\n');
    expect(apply('cache.go', go, diff(shifted(hunk, 'tab'))).after).toBe(want);
    expect(apply('cache.go', go, diff(shifted(hunk, '-tab'))).after).toBe(want);
  });

  it('writes the file’s tabs when the whole hunk was quoted with spaces', () => {
    const go = 'func f() {\n\tif ok {\n\t\treturn 1\n\t}\n\treturn 0\n}\n';
    const diff =
      '--- a/f.go\n+++ b/f.go\n@@ -1,5 +1,6 @@\n func f() {\n     if ok {\n+        log(1)\n         return 1\n     }\n     return 0\n';
    expect(apply('f.go', go, diff).after).toBe(
      'func f() {\n\tif ok {\n\t\tlog(1)\n\t\treturn 1\n\t}\n\treturn 0\n}\n',
    );
  });

  it('refuses, showing the offset, when an added line is shallower than the shift allows', () => {
    const lines = shifted(PY_HUNK, 8);
    lines[4] = '+continue'; // at column 0 in the hunk: 8 shallower would be column -8
    const err = refusal(() => apply('wrapper.py', PY, pyDiff('@@ -15,6 +15,8 @@', lines)));
    expect(err.message).toContain('hunk 1');
    expect(err.message).toContain(
      'quoted 8 spaces deeper than the file, but the added line "continue"',
    );
  });

  it('refuses a hunk whose lines are off by different amounts', () => {
    const lines = PY_HUNK.map((l, i) => (i % 2 === 0 && l[0] !== '+' ? ` ${l}` : l));
    lines[1] = `   ${lines[1]}`;
    const err = refusal(() => apply('wrapper.py', PY, pyDiff('@@ -15,6 +15,8 @@', lines)));
    expect(err.message).toMatch(/not by one consistent amount/);
  });

  it('keeps the model’s lines when only one context line is off (a misquote, not a shift)', () => {
    const lines = [...PY_HUNK];
    lines[6] = '                  lines[-1] += chunk'; // one space too deep
    expect(apply('wrapper.py', PY, pyDiff('@@ -15,6 +15,8 @@', lines)).after).toBe(PY_FIXED);
  });
});

describe('hunk headers without numbers', () => {
  const body = PY_HUNK;
  it.each(['@@ ... @@', '@@', '@@ …', '@@ def wrap(self, text):', '@@ def wrap(self, text): @@'])(
    'applies `%s`',
    (header) => {
      expect(apply('wrapper.py', PY, pyDiff(header, body)).after).toBe(PY_FIXED);
    },
  );

  const twin = (name: string) => [
    '--- a/wrapper.py',
    '+++ b/wrapper.py',
    `@@ ${name}`,
    '     w = Wrapper(width=width, **kwargs)',
    '-    return w.wrap(text)',
    '+    return list(w.wrap(text))',
    '',
  ];

  it('places a hunk by the function its `@@ def …` header names when the lines occur twice', () => {
    const file = PY.replace('return "\\n".join(w.wrap(text))', 'return w.wrap(text)');
    const inWrap = apply('wrapper.py', file, twin('def wrap(text').join('\n'));
    expect(inWrap.after).toBe(
      file.replace(
        'def wrap(text, width=70, **kwargs):\n    w = Wrapper(width=width, **kwargs)\n    return w.wrap(text)',
        'def wrap(text, width=70, **kwargs):\n    w = Wrapper(width=width, **kwargs)\n    return list(w.wrap(text))',
      ),
    );
    expect(inWrap.hunks[0]?.placedBy).toBe('heading');
    const inFill = apply(
      'wrapper.py',
      file,
      twin('def fill(text, width=70, **kwargs):').join('\n'),
    );
    expect(inFill.after.endsWith('    return list(w.wrap(text))\n')).toBe(true);
    expect(
      refusal(() => apply('wrapper.py', file, twin('def nowhere():').join('\n'))).message,
    ).toMatch(/matches equally well at lines 26 and 31/);
  });

  it('follows nested scope headers (`@@ class …` then `@@ def …`)', () => {
    const file = `class A:
    def close(self):
        self.done = True

class B:
    def close(self):
        self.done = True
`;
    const diff = [
      '--- a/m.py',
      '+++ b/m.py',
      '@@ class B:',
      '@@     def close(self):',
      '-        self.done = True',
      '+        self.done = self.flush()',
      '',
    ].join('\n');
    expect(apply('m.py', file, diff).after).toBe(file.replace(/True\n$/, 'self.flush()\n'));
  });

  it('parses every header shape as a hunk, not as prose', () => {
    for (const header of ['@@', '@@ ... @@', '@@ def f():', '@@ -3 +3 @@']) {
      const [patch] = parseUnifiedDiff(`--- a/x.py\n+++ b/x.py\n${header}\n-a\n+b\n`);
      expect(patch?.hunks).toHaveLength(1);
      expect(patch?.hunks[0]?.lines.filter((l) => !l.optional).map((l) => l.kind)).toEqual([
        '-',
        '+',
      ]);
    }
  });
});

describe('one line of context', () => {
  /** Handlers with identical closing lines, as in an Express router file. */
  const JS = `router.get('/users', (req, res) => {
  res.json(users);
});

router.get('/teams', (req, res) => {
  res.json(teams);
});

router.get('/roles', (req, res) => {
  res.json(roles);
});
`;
  const insert = (header: string) =>
    [header, ' });', '+', "+router.get('/x', handler);"].join('\n');
  const diff = (...hunks: string[]) =>
    ['--- a/routes.js', '+++ b/routes.js', ...hunks, ''].join('\n');
  const AFTER_TEAMS = JS.replace(
    '  res.json(teams);\n});\n',
    "  res.json(teams);\n});\n\nrouter.get('/x', handler);\n",
  );

  it('uses the line number when another hunk, placed on its own, shows the numbers are right', () => {
    const other = ['@@ -2,1 +2,1 @@', '-  res.json(users);', '+  res.json(users.list);'].join('\n');
    const result = apply('routes.js', JS, diff(other, insert('@@ -7,1 +7,3 @@')));
    expect(result.after).toBe(AFTER_TEAMS.replace('res.json(users)', 'res.json(users.list)'));
    expect(result.hunks[1]?.placedBy).toBe('line-number');
  });

  it('uses a lone line number where the hunk’s lines stand exactly, as git apply would', () => {
    const result = apply('routes.js', JS, diff(insert('@@ -7,1 +7,3 @@')));
    expect(result.after).toBe(AFTER_TEAMS);
    expect(result.hunks[0]?.placedBy).toBe('line-number');
  });

  it('refuses, quoting every place, when the number lands between copies or is missing', () => {
    for (const header of ['@@ -5,1 +5,3 @@', '@@ @@']) {
      const err = refusal(() => apply('routes.js', JS, diff(insert(header))));
      expect(err.message).toMatch(/matches equally well at lines 3 and 7 and 11/);
    }
  });

  it('does not believe a lone number where the hunk fits only with a misquote', () => {
    const misquoted = diff(
      ['@@ -6,3 +6,4 @@', '   res.json(tames);', ' });', '+', "+router.get('/x', handler);"].join(
        '\n',
      ),
    );
    // `res.json(tames)` is a misquote of every `res.json(…)` line alike (users, teams, roles).
    expect(refusal(() => apply('routes.js', JS, misquoted)).message).toMatch(
      /matches equally well/,
    );
  });

  it('uses a lone number when every other copy is far beyond how far LLM numbers drift', () => {
    const far = `${JS.slice(0, JS.indexOf("router.get('/teams'"))}${'// filler\n'.repeat(80)}router.get('/teams', (req, res) => {\n  res.json(teams);\n});\n`;
    const result = apply('routes.js', far, diff(insert('@@ -85,1 +85,3 @@')));
    expect(result.after.endsWith("});\n\nrouter.get('/x', handler);\n")).toBe(true);
    expect(result.hunks[0]?.placedBy).toBe('nearest-line');
  });
});

describe('an insertion sent again', () => {
  const CHANGELOG = `# Changelog

## Unreleased

- Fix the retry delay when the server sends Retry-After.
- Keep query strings when following redirects.

## 1.4.0

- Add a timeout option.
`;
  const entry = [
    '--- a/CHANGELOG.md',
    '+++ b/CHANGELOG.md',
    '@@ -3,4 +3,5 @@',
    ' ## Unreleased',
    ' ',
    '+- Stop sending the body twice on 307 redirects.',
    ' - Fix the retry delay when the server sends Retry-After.',
    ' - Keep query strings when following redirects.',
    '',
  ].join('\n');

  it('applies once, then refuses the same diff as already applied', () => {
    const once = apply('CHANGELOG.md', CHANGELOG, entry).after;
    expect(once).toContain('- Stop sending the body twice on 307 redirects.\n- Fix the retry');
    const err = refusal(() => apply('CHANGELOG.md', once, entry));
    expect(err.message).toMatch(/already applied/);
    expect(
      refusal(() => apply('CHANGELOG.md', once, entry.replace('@@ -3,4 +3,5 @@', '@@ @@'))).message,
    ).toMatch(/already applied/);
  });

  it('refuses a re-sent append at the end of the file, which has no trailing context', () => {
    const append = [
      '--- a/CHANGELOG.md',
      '+++ b/CHANGELOG.md',
      '@@ -8,3 +8,4 @@',
      ' ## 1.4.0',
      ' ',
      ' - Add a timeout option.',
      '+- Add a proxy option.',
      '',
    ].join('\n');
    const once = apply('CHANGELOG.md', CHANGELOG, append).after;
    expect(once.endsWith('- Add a timeout option.\n- Add a proxy option.\n')).toBe(true);
    expect(refusal(() => apply('CHANGELOG.md', once, append)).message).toMatch(/already applied/);
  });

  it('still inserts a line equal to its neighbour when the context is whole', () => {
    const file = 'a();\nb();\nc();\n';
    const diff = '--- a/x.js\n+++ b/x.js\n@@ -1,3 +1,4 @@\n a();\n b();\n+b();\n c();\n';
    expect(apply('x.js', file, diff).after).toBe('a();\nb();\nb();\nc();\n');
  });
});

describe('a Markdown fence as a context line', () => {
  it('reads ` ```` inside a hunk as context when more hunk lines follow', () => {
    const file = '# Usage\n\n```\ntype A = {\n  a: string;\n};\n```\n';
    const diff =
      '```diff\n--- a/README.md\n+++ b/README.md\n@@ -3,2 +3,3 @@\n ```\n+// the shape of A\n type A = {\n```\n';
    expect(apply('README.md', file, diff).after).toBe(
      '# Usage\n\n```\n// the shape of A\ntype A = {\n  a: string;\n};\n```\n',
    );
  });
});

describe('repeated blocks', () => {
  /** Two handlers that open with the same lines, as generated request code often does. */
  const TWIN = `function onError(exc) {
  this.loop.report({
    message: 'protocol.error() failed',
    exception: exc,
    transport: this,
  });
}

function onClose(exc) {
  this.loop.report({
    message: 'protocol.error() failed',
    exception: exc,
    transport: this,
  });
}
`;
  const insert = (header: string) =>
    [
      '--- a/t.js',
      '+++ b/t.js',
      header,
      "     message: 'protocol.error() failed',",
      '     exception: exc,',
      '     transport: this,',
      '+    protocol: this.protocol,',
      '   });',
      ' }',
      '',
    ].join('\n');

  /** The first application, into onError. */
  const ONCE = TWIN.replace(
    '    transport: this,\n',
    '    transport: this,\n    protocol: this.protocol,\n',
  );

  it('does not insert a re-sent line into the other copy of a repeated block', () => {
    const once = ONCE;
    expect(once.indexOf('protocol: this.protocol')).toBeLessThan(once.indexOf('function onClose'));
    for (const header of ['@@ -3,5 +3,6 @@', '@@ @@'])
      expect(refusal(() => apply('t.js', once, insert(header))).message).toMatch(
        /already applied: its added lines are already in the file at line 3/,
      );
  });

  it('still inserts into the second copy when the line numbers point at it', () => {
    const rename = ['@@ -10,1 +10,1 @@', '-function onClose(exc) {', '+function onClosed(exc) {'];
    const text = insert('@@ -12,5 +12,6 @@').replace(
      '@@ -12,5 +12,6 @@',
      [...rename, '@@ -12,5 +12,6 @@'].join('\n'),
    );
    const twice = apply('t.js', ONCE, text).after;
    expect(twice.match(/protocol: this\.protocol/g)).toHaveLength(2);
    expect(twice).toContain('function onClosed(exc) {');
  });

  const NESTED = `function parse(body) {
  try {
    return JSON.parse(body);
  } catch (e) {
    throw wrap(e);
  }
}

function parseStrict(body) {
  if (body !== '') {
    try {
      return JSON.parse(body);
    } catch (e) {
      throw wrap(e);
    }
  }
}
`;
  const shallow = (header: string) =>
    [
      '--- a/p.js',
      '+++ b/p.js',
      header,
      '   try {',
      '-    return JSON.parse(body);',
      '+    return JSON.parse(body, reviver);',
      '   } catch (e) {',
      '',
    ].join('\n');

  it('treats a literal quote and a uniformly shifted one as equal evidence, settled by line numbers other hunks confirm', () => {
    // Quoted two spaces shallower than lines 11-13, which is literally lines 2-4.
    const rename = [
      '@@ -9,1 +9,1 @@',
      '-function parseStrict(body) {',
      '+function parseStrict(body, reviver) {',
    ];
    const text = shallow('@@ -11,3 +11,3 @@').replace(
      '@@ -11,3 +11,3 @@',
      [...rename, '@@ -11,3 +11,3 @@'].join('\n'),
    );
    const result = apply('p.js', NESTED, text);
    expect(result.after).toBe(
      NESTED.replace(
        'function parseStrict(body) {',
        'function parseStrict(body, reviver) {',
      ).replace('      return JSON.parse(body);', '      return JSON.parse(body, reviver);'),
    );
    expect(result.hunks[1]?.placedBy).toBe('line-number');
    expect(result.hunks[1]?.reindented).toBe('quoted 2 spaces shallower than the file');
  });

  it('refuses when nothing tells the literal copy from the re-indented one', () => {
    for (const header of ['@@ @@', '@@ -11,3 +11,3 @@'])
      expect(refusal(() => apply('p.js', NESTED, shallow(header))).message).toMatch(
        /matches equally well at lines 2 and 11/,
      );
  });
});

describe('hunk order', () => {
  const BLOCKS = [1, 2, 3, 4, 5]
    .map((k) => `function f${k}() {\n  prepare();\n  return;\n}\n`)
    .join('');
  const diff = (middle: string) =>
    [
      '--- a/s.js',
      '+++ b/s.js',
      '@@ -30,3 +30,3 @@',
      ' function f1() {',
      '-  prepare();',
      '+  prepare(1);',
      middle,
      '   prepare();',
      '+  log();',
      '   return;',
      '@@ -70,3 +70,3 @@',
      ' function f3() {',
      '-  prepare();',
      '+  prepare(3);',
      '',
    ].join('\n');

  it('places a hunk between the hunks around it when line numbers cannot be trusted', () => {
    const result = apply('s.js', BLOCKS, diff('@@ -50,2 +50,3 @@'));
    expect(result.after).toBe(
      BLOCKS.replace('f1() {\n  prepare();', 'f1() {\n  prepare(1);')
        .replace('f2() {\n  prepare();\n', 'f2() {\n  prepare();\n  log();\n')
        .replace('f3() {\n  prepare();', 'f3() {\n  prepare(3);'),
    );
    expect(result.hunks.map((h) => h.placedBy)).toEqual(['best-match', 'hunk-order', 'best-match']);
  });

  it('does not use the order when the placed hunks are not in file order', () => {
    const reversed = diff('@@ -50,2 +50,3 @@')
      .replace('function f1() {', 'function fX() {')
      .replace('function f3() {', 'function f1() {')
      .replace('function fX() {', 'function f3() {');
    expect(refusal(() => apply('s.js', BLOCKS, reversed)).message).toMatch(
      /hunk 2 .* matches equally well/,
    );
  });
});

describe('added lines already written as the file has them', () => {
  it('refuses when the quote is re-indented but the replacing line keeps the file’s indentation', () => {
    // Context and removed lines quoted 4 spaces shallower; the new line written at the file's 12.
    const lines = [
      '     for chunk in self.split(text):',
      '         if self.drop_whitespace and chunk.strip() == "":',
      '             continue',
      '-        if lines and len(lines[-1]) + len(chunk) <= self.width:',
      '+            if lines and len(lines[-1]) + len(chunk) < self.width:',
      '             lines[-1] += chunk',
    ];
    const err = refusal(() => apply('wrapper.py', PY, pyDiff('@@ -15,5 +15,5 @@', lines)));
    expect(err.message).toMatch(/quoted 4 spaces shallower than the file, but the added line/);
    expect(err.message).toMatch(/indented like the file's line it replaces/);
  });

  it('moves the replacing line with the quote when it keeps the quote’s indentation', () => {
    const lines = [
      '     for chunk in self.split(text):',
      '         if self.drop_whitespace and chunk.strip() == "":',
      '             continue',
      '-        if lines and len(lines[-1]) + len(chunk) <= self.width:',
      '+        if lines and len(lines[-1]) + len(chunk) < self.width:',
      '             lines[-1] += chunk',
    ];
    expect(apply('wrapper.py', PY, pyDiff('@@ -15,5 +15,5 @@', lines)).after).toBe(
      PY.replace('len(chunk) <= self.width', 'len(chunk) < self.width'),
    );
  });
});
