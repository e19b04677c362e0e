/**
 * `matchNear` tries a lookup pattern only around the occurrences of the name (its line, the line
 * before and the line after) instead of over the whole file. It must find what the previous
 * whole-file `pattern.exec(content)` found, in the same files, and report the line of the name
 * inside that match (the previous code reported the match's first line, which for `^\s*…` could be
 * a blank line above the definition). The only misses allowed are matches that run over two or
 * more line breaks before the name (`type\n\nName`: a keyword far above it); this repository holds
 * none, the fixtures below two.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { extractSymbols } from '../../../src/context/extract-symbols.js';
import {
  definitionPattern,
  escapeRegExp,
  findDefinitions,
  lineAt,
  matchNear,
  type GrepFile,
  type Hit,
} from '../../../src/context/grep-code.js';

/** rank-files' pattern for the modules that read a setting `name`. */
const settingsReader = (name: string): RegExp => {
  const n = escapeRegExp(name);
  return new RegExp(
    `\\b(?:settings|config|conf|cfg|options|opts)\\s*(?:\\.\\s*${n}\\b|\\[\\s*['"]${n}['"]\\s*\\]|\\.get\\(\\s*['"]${n}['"])|getattr\\(\\s*(?:settings|config|conf)\\s*,\\s*['"]${n}['"]`,
  );
};

/** rank-files' pattern for the line that declares class `cls`. */
const classPattern = (cls: string): RegExp =>
  new RegExp(`^[ \\t]*(?:export\\s+)?(?:default\\s+)?class\\s+${cls}\\b`, 'm');

/**
 * The previous implementation: `pattern` over the whole text from `from`. The index of the name's
 * first occurrence inside the match, and how many line breaks the match runs over before it.
 */
function previous(content: string, name: string, pattern: RegExp, from = 0) {
  const m = pattern.exec(content.slice(from));
  if (!m) return undefined;
  const inMatch = m[0].indexOf(name);
  return {
    at: from + m.index + Math.max(0, inMatch),
    text: m[0],
    breaksBefore: m[0].slice(0, Math.max(0, inMatch)).split('\n').length - 1,
  };
}

/** The previous findDefinitions, with the name's line in place of the match's first line. */
function previousDefinitions(files: readonly GrepFile[], name: string): Hit[] {
  const pattern = definitionPattern(name);
  const out: Hit[] = [];
  for (const f of files) {
    if (!f.content.includes(name)) continue;
    const old = previous(f.content, name, pattern);
    if (old && old.breaksBefore < 2) out.push({ path: f.path, line: lineAt(f.content, old.at) });
  }
  return out;
}

/** Old against new for lookups; what differs, and the misses allowed (far keyword above). */
class Comparison {
  count = 0;
  found = 0;
  readonly allowed: string[] = [];
  readonly differences: string[] = [];

  check(label: string, content: string, name: string, pattern: RegExp, from = 0): void {
    this.count++;
    const old = previous(content, name, pattern, from);
    const now = matchNear(content, name, pattern, from);
    const where = `${label}: ${JSON.stringify(name)} with ${String(pattern).slice(0, 40)}…`;
    if (!old) {
      if (now >= 0)
        this.differences.push(`${where}: found at line ${lineAt(content, now)} only now`);
      return;
    }
    const line = lineAt(content, old.at);
    if (now < 0) {
      const say = `${where}: line ${line} (${JSON.stringify(old.text.slice(0, 80))}) not found now`;
      if (old.breaksBefore >= 2) this.allowed.push(say);
      else this.differences.push(say);
      return;
    }
    this.found++;
    if (now < from) this.differences.push(`${where}: ${now} before from ${from}`);
    if (lineAt(content, now) !== line)
      this.differences.push(
        `${where}: line ${lineAt(content, now)}, was ${line} (${JSON.stringify(old.text.slice(0, 80))})`,
      );
  }
}

function sourcesUnder(dir: string): GrepFile[] {
  const out: GrepFile[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourcesUnder(path));
    else if (entry.name.endsWith('.ts'))
      out.push({ path: relative(process.cwd(), path), content: readFileSync(path, 'utf8') });
  }
  return out;
}

/** Common words: defined in many files, and held many times on a line (`e`). */
const COMMON = ['name', 'type', 'run', 'config', 'default', 'e'];

const PYTHON = `"""A module."""
import os


DEFAULT_TIMEOUT = 30
templater = None

class Templater(Base):
    name = "jinja"

    def __init__(self, config=None):
        self.config = config

    @property
    def unwrap(self):
        value = config.get(
            "unwrap_wrapped_queries", section="templater"
        )
        return self.config.max_depth or settings.MAX_DEPTH

    async def render(self, sql):
        return getattr(settings, "TEMPLATE_DIR", None)


def process(
    raw,
    cfg,
):
    return cfg["large_file_skip"]

`;

const GO = `package server

type Config struct {
\tAddr string
}

type Handler interface {
\tServe() error
}

var ErrClosed = errors.New("closed")

const maxConns = 10

func (s *Server) Serve(
\tctx context.Context,
) error {
\treturn nil
}

func New(cfg Config) *Server { return &Server{cfg: cfg} }

type

Detached int
`;

const JS = `'use strict';

exports.parse =
  function (s) {
    return s;
  };

module.exports.format = function format(x) { return x; };

Parser.prototype.run = function () {
  return this;
};

class Parser {
  constructor(options) {
    this.options = options;
  }

  static async load(path) {
    return new Parser(opts.path);
  }

  get size() {
    return 0;
  }
}

const handler = async (req) => req;
let count = 0;
var legacy = function () {};

export default function main() {}

const

  spaced = 1;

const api = {
  fetch: async function () {},
  'post': (body) => body,
};
`;

describe('matchNear against the previous whole-file match', () => {
  const files = sourcesUnder(join(process.cwd(), 'src'));

  it('finds the definitions of the names each file of this repository defines', () => {
    const cmp = new Comparison();
    let defined = 0;
    for (const f of files) {
      const names = new Set(extractSymbols(f.path, f.content).map((s) => s.name));
      defined += names.size;
      for (const name of COMMON) if (f.content.includes(name)) names.add(name);
      for (const name of names) cmp.check(f.path, f.content, name, definitionPattern(name));
    }
    expect(cmp.differences).toEqual([]);
    expect(cmp.allowed).toEqual([]);
    expect(files.length).toBeGreaterThan(100);
    expect(cmp.count).toBeGreaterThan(3000);
    expect(cmp.found).toBeGreaterThanOrEqual(defined);
  });

  it('finds the readers of the settings this repository reads', () => {
    const cmp = new Comparison();
    const read = /\b(?:settings|config|conf|cfg|options|opts)\s*(?:\.\s*|\[\s*['"])([A-Za-z_]\w*)/g;
    const names = new Set(COMMON.filter((n) => n.length >= 4));
    // rank-files looks up the settings of four characters or more.
    for (const f of files)
      for (const m of f.content.matchAll(read)) if (m[1]!.length >= 4) names.add(m[1]!);
    for (const name of names) {
      const pattern = settingsReader(name);
      for (const f of files)
        if (f.content.includes(name)) cmp.check(f.path, f.content, name, pattern);
    }
    expect(cmp.differences).toEqual([]);
    expect(cmp.allowed).toEqual([]);
    expect(cmp.found).toBeGreaterThan(200);
  });

  it('finds the members of each class from the class line on (Class.method)', () => {
    const cmp = new Comparison();
    for (const f of files) {
      const symbols = extractSymbols(f.path, f.content);
      for (const cls of symbols.filter((s) => s.kind === 'class')) {
        const classRe = classPattern(cls.name);
        cmp.check(f.path, f.content, cls.name, classRe);
        const c = matchNear(f.content, cls.name, classRe);
        if (c < 0) continue;
        const from = f.content.lastIndexOf('\n', c) + 1;
        for (const member of symbols)
          cmp.check(
            `${f.path} from ${cls.name}`,
            f.content,
            member.name,
            definitionPattern(member.name),
            from,
          );
      }
    }
    expect(cmp.differences).toEqual([]);
    expect(cmp.allowed).toEqual([]);
    expect(cmp.found).toBeGreaterThan(40);
  });

  it('finds what it found in Python, Go and JavaScript', () => {
    const cmp = new Comparison();
    for (const [path, content] of [
      ['m.py', PYTHON],
      ['s.go', GO],
      ['p.js', JS],
    ] as const) {
      const names = [
        ...extractSymbols(path, content).map((s) => s.name),
        ...COMMON,
        ...['parse', 'format', 'fetch', 'post', 'size', 'load', 'handler', 'count', 'legacy'],
        ...['unwrap_wrapped_queries', 'max_depth', 'MAX_DEPTH', 'TEMPLATE_DIR', 'large_file_skip'],
        ...['templater', 'spaced', 'Detached', 'Serve', 'cfg', 'options', 'path'],
      ].filter((n) => content.includes(n));
      const classes = extractSymbols(path, content).filter((s) => s.kind === 'class');
      const froms = [
        0,
        ...classes.map((c) => content.split('\n', c.line - 1).join('\n').length + 1),
      ];
      for (const name of new Set(names))
        for (const from of froms) {
          cmp.check(`${path} from ${from}`, content, name, definitionPattern(name), from);
          cmp.check(`${path} from ${from}`, content, name, settingsReader(name), from);
        }
    }
    // The keyword two lines above the name: the only kind of match it may miss.
    expect(cmp.allowed).toEqual([
      expect.stringContaining('s.go from 0: "Detached"'),
      expect.stringContaining('p.js from 0: "spaced"'),
      expect.stringMatching(/^p\.js from [1-9]\d*: "spaced"/),
    ]);
    expect(cmp.differences).toEqual([]);
  });

  it('names the same files and lines as the previous findDefinitions', () => {
    for (const name of ['matchNear', 'lineAt', 'rankFiles', 'GrepFile', 'RULES', 'name', 'run']) {
      const holders = files.filter((f) => f.content.includes(name));
      const before = previousDefinitions(holders, name);
      expect(findDefinitions(holders, name)).toEqual(before);
      expect(findDefinitions(holders, name, 1)).toEqual(before.slice(0, 2));
      expect(before.length).toBeGreaterThan(0);
    }
    const fixtures = [
      { path: 'm.py', content: PYTHON },
      { path: 's.go', content: GO },
      { path: 'p.js', content: JS },
    ];
    expect(findDefinitions(fixtures, 'parse')).toEqual([{ path: 'p.js', line: 3 }]);
    expect(findDefinitions(fixtures, 'Serve')).toEqual([{ path: 's.go', line: 15 }]);
    expect(findDefinitions(fixtures, 'name', 0)).toEqual([]);
  });
});

describe('matchNear', () => {
  it('finds a setting read by a call opened on the line above (Black)', () => {
    const content = [
      'def unwrap(self):',
      '    value = config.get(',
      '        "unwrap_wrapped_queries", section="templater"',
      '    )',
      '',
    ].join('\n');
    const at = matchNear(
      content,
      'unwrap_wrapped_queries',
      settingsReader('unwrap_wrapped_queries'),
    );
    expect(lineAt(content, at)).toBe(3);
    expect(content.startsWith('unwrap_wrapped_queries', at)).toBe(true);
  });

  it('finds an assignment whose function starts on the next line', () => {
    const content = "'use strict';\n\nexports.parse =\n  function (s) {\n    return s;\n  };\n";
    const at = matchNear(content, 'parse', definitionPattern('parse'));
    expect(lineAt(content, at)).toBe(3);
    expect(content.startsWith('parse', at)).toBe(true);
  });

  it('finds a definition that runs on to the next line', () => {
    const content = [
      'class Conn',
      '{',
      '  close()', // 3: the brace on the line below (Allman)
      '  {',
      '  }',
      '}',
      'function setup() {',
      '  handler =', // 8: no `exports.`, indented: the function is needed
      '    function () {};',
      '}',
    ].join('\n');
    for (const [name, line] of [
      ['close', 3],
      ['handler', 8],
    ] as const) {
      const at = matchNear(content, name, definitionPattern(name));
      expect(content.startsWith(name, at)).toBe(true);
      expect(lineAt(content, at)).toBe(line);
      // Not on its line alone: the line after is needed.
      expect(definitionPattern(name).test(content.split('\n')[line - 1]!)).toBe(false);
    }
  });

  it("reports the definition's line, not the blank lines above it", () => {
    const content = '\n\n\nfoo = function () {}\n';
    const old = definitionPattern('foo').exec(content)!;
    expect(lineAt(content, old.index)).toBe(1); // what the previous code reported
    expect(lineAt(content, matchNear(content, 'foo', definitionPattern('foo')))).toBe(4);
    expect(findDefinitions([{ path: 'a.js', content }], 'foo')).toEqual([
      { path: 'a.js', line: 4 },
    ]);
  });

  it('finds only the definitions from `from` on', () => {
    const content = [
      'function close() {}', // 1: a top-level close, before the class
      '',
      'class Conn {',
      '  open() {',
      '    return close();',
      '  }',
      '',
      '  close() {', // 8
      '    return 1;',
      '  }',
      '}',
    ].join('\n');
    const pattern = definitionPattern('close');
    expect(lineAt(content, matchNear(content, 'close', pattern))).toBe(1);
    const c = matchNear(content, 'Conn', classPattern('Conn'));
    const from = content.lastIndexOf('\n', c) + 1;
    expect(lineAt(content, from)).toBe(3);
    expect(lineAt(content, matchNear(content, 'close', pattern, from))).toBe(8);
    expect(matchNear(content, 'open', definitionPattern('open'), from)).toBeGreaterThan(from);
    // Defined only before `from`: not found, even with the line before `from` in its window.
    const line = (n: number) =>
      content
        .split('\n')
        .slice(0, n - 1)
        .join('\n').length + 1;
    expect(matchNear(content, 'Conn', classPattern('Conn'), line(4))).toBe(-1);
    expect(matchNear(content, 'open', definitionPattern('open'), line(4))).toBe(line(4) + 2);
    expect(matchNear(content, 'open', definitionPattern('open'), line(5))).toBe(-1);
    expect(matchNear(content, 'close', pattern, line(9))).toBe(-1);
    // The line before `from` is outside the window, even for an occurrence on the line `from`.
    const called = 'function close() {}\nclose();\n';
    expect(matchNear(called, 'close', pattern)).toBe(9);
    expect(matchNear(called, 'close', pattern, called.indexOf('\n') + 1)).toBe(-1);
  });

  it('reads the first and the last character of a text', () => {
    expect(matchNear('foo = 1', 'foo', definitionPattern('foo'))).toBe(0);
    expect(matchNear('foo = 1\n', 'foo', definitionPattern('foo'))).toBe(0);
    const end = 'x = 1\ny = 2\nclass Foo';
    expect(matchNear(end, 'Foo', definitionPattern('Foo'))).toBe(end.length - 3);
    expect(lineAt(end, matchNear(end, 'Foo', definitionPattern('Foo')))).toBe(3);
    expect(matchNear('class Foo', 'Foo', definitionPattern('Foo'))).toBe(6);
    expect(matchNear('\nfoo = 1', 'foo', definitionPattern('foo'))).toBe(1);
    expect(matchNear('', 'foo', definitionPattern('foo'))).toBe(-1);
    expect(matchNear('Foo', 'Foo', definitionPattern('Foo'))).toBe(-1);
  });

  it('reads a text without a line break', () => {
    const content = 'var a = 1; function run() {} run(); run();';
    expect(matchNear(content, 'run', definitionPattern('run'))).toBe(content.indexOf('run'));
    // The first `a` of the match `var a =` is the one in `var`: the same line all the same.
    expect(matchNear(content, 'a', definitionPattern('a'))).toBe(1);
    expect(matchNear(content, 'b', definitionPattern('b'))).toBe(-1);
  });

  it('tries a line once however often it holds the name', () => {
    const line = `${'x.a(a, a); '.repeat(200)}\n`;
    const content = `${line.repeat(20)}let a = 1;\n${line}`;
    let tries = 0;
    const pattern = definitionPattern('a');
    const counting = new RegExp(pattern.source, pattern.flags);
    const exec = counting.exec.bind(counting);
    counting.exec = (s: string) => {
      tries++;
      return exec(s);
    };
    const at = matchNear(content, 'a', counting);
    expect(lineAt(content, at)).toBe(21);
    expect(content.slice(at - 4, at + 1)).toBe('let a');
    expect(tries).toBe(20); // lines 1 to 20, once each: line 20's window holds line 21
    expect(matchNear(line.repeat(50), 'a', pattern)).toBe(-1);
  });
});
