/**
 * Definitions per file by line regexes for common languages: no parser, so it is fast on
 * thousands of files and wrong only in harmless ways (a missed or extra name). Top-level names
 * make the repository map; all names (methods too) let the ranking find "the file that defines
 * `computeRefund`".
 */

export interface SymbolDef {
  name: string;
  /** `function`, `class`, `def`, `heading`, … as written in the source. */
  kind: string;
  /** 1-based line. */
  line: number;
  topLevel: boolean;
}

/**
 * A cheap test that a line must pass for the rule's pattern to match (`indented`: the line starts
 * with `\s`). Only saves time: a rule without a guard, or whose guard passes, runs its pattern.
 */
type Guard = (line: string, indented: boolean) => boolean;
type Rule = [RegExp, string] | [RegExp, string, Guard];

/** Patterns that start with a literal word at column 0 cannot match an indented line. */
const AT_COLUMN_0: Guard = (_line, indented) => !indented;
/** The method pattern needs leading `\s` and a line that ends with `{` (then only `\s`). */
const METHOD_LINE: Guard = (line, indented) => indented && line.trimEnd().endsWith('{');

const JS_TS: Rule[] = [
  [
    /^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/,
    'function',
    AT_COLUMN_0,
  ],
  [
    /^(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/,
    'class',
    AT_COLUMN_0,
  ],
  [/^(?:export\s+)?(?:declare\s+)?interface\s+([A-Za-z_$][\w$]*)/, 'interface', AT_COLUMN_0],
  [/^(?:export\s+)?(?:declare\s+)?type\s+([A-Za-z_$][\w$]*)\s*[=<]/, 'type', AT_COLUMN_0],
  [/^(?:export\s+)?(?:declare\s+)?(?:const\s+)?enum\s+([A-Za-z_$][\w$]*)/, 'enum', AT_COLUMN_0],
  [/^(?:export\s+)?(?:declare\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)/, 'const', AT_COLUMN_0],
  [/^(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=/, 'export', AT_COLUMN_0],
  // Methods: indented `name(args) {` or `async name(`, excluding control-flow keywords.
  [
    /^\s+(?:(?:public|private|protected|static|async|readonly|override|get|set)\s+)*(?!if\b|for\b|while\b|switch\b|catch\b|return\b|function\b)([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\([^)]*\)\s*(?::[^{]+)?\{\s*$/,
    'method',
    METHOD_LINE,
  ],
];

/** Exported for tests (the guards must never change what the patterns find). */
export const RULES: Readonly<Record<string, readonly Rule[]>> = {
  typescript: JS_TS,
  javascript: JS_TS,
  python: [
    [/^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/, 'def'],
    [/^\s*class\s+([A-Za-z_]\w*)/, 'class'],
    [/^([A-Z][A-Z0-9_]+)\s*=/, 'const'],
  ],
  go: [
    [/^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/, 'func'],
    [/^type\s+([A-Za-z_]\w*)/, 'type'],
    [/^(?:var|const)\s+([A-Za-z_]\w*)/, 'var'],
  ],
  rust: [
    [
      /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+([A-Za-z_]\w*)/,
      'fn',
    ],
    [/^\s*(?:pub(?:\([^)]*\))?\s+)?(struct|enum|trait|union|mod|type)\s+([A-Za-z_]\w*)/, '$1'],
    [/^\s*impl(?:<[^>]*>)?\s+(?:[\w:<>, ]+\s+for\s+)?([A-Za-z_]\w*)/, 'impl'],
    [/^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const|static)\s+([A-Z_][A-Z0-9_]*)/, 'const'],
  ],
  java: [
    [
      /^\s*(?:(?:public|private|protected|static|final|abstract|sealed|non-sealed)\s+)*(class|interface|enum|record)\s+([A-Za-z_]\w*)/,
      '$1',
    ],
    [
      /^\s+(?:(?:public|private|protected|static|final|synchronized|abstract|default)\s+)+[\w<>[\],.? ]+\s+([A-Za-z_]\w*)\s*\(/,
      'method',
    ],
  ],
  kotlin: [
    [
      /^\s*(?:(?:public|private|internal|protected|open|abstract|sealed|data|enum|inline|value)\s+)*(class|interface|object)\s+([A-Za-z_]\w*)/,
      '$1',
    ],
    [
      /^\s*(?:(?:public|private|internal|protected|override|suspend|inline|open)\s+)*fun\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?([A-Za-z_]\w*)/,
      'fun',
    ],
  ],
  csharp: [
    [
      /^\s*(?:(?:public|private|protected|internal|static|sealed|abstract|partial|readonly)\s+)*(class|interface|enum|struct|record)\s+([A-Za-z_]\w*)/,
      '$1',
    ],
    [
      /^\s+(?:(?:public|private|protected|internal|static|virtual|override|async|sealed)\s+)+[\w<>[\],.? ]+\s+([A-Za-z_]\w*)\s*\(/,
      'method',
    ],
  ],
  ruby: [
    [/^\s*def\s+(?:self\.)?([A-Za-z_]\w*[?!=]?)/, 'def'],
    [/^\s*(class|module)\s+([A-Z]\w*(?:::\w+)*)/, '$1'],
  ],
  php: [
    [
      /^\s*(?:(?:public|private|protected|static|final|abstract)\s+)*function\s+&?([A-Za-z_]\w*)/,
      'function',
    ],
    [/^\s*(?:(?:final|abstract|readonly)\s+)*(class|interface|trait|enum)\s+([A-Za-z_]\w*)/, '$1'],
  ],
  swift: [
    [
      /^\s*(?:(?:public|private|internal|fileprivate|open|static|final|override|@\w+)\s+)*func\s+([A-Za-z_]\w*)/,
      'func',
    ],
    [
      /^\s*(?:(?:public|private|internal|fileprivate|open|final)\s+)*(class|struct|enum|protocol|extension|actor)\s+([A-Za-z_]\w*)/,
      '$1',
    ],
  ],
  c: [
    [
      /^(?:static\s+|inline\s+|extern\s+|const\s+|unsigned\s+|signed\s+)*[A-Za-z_][\w]*(?:\s*\*+\s*|\s+)([A-Za-z_]\w*)\s*\([^;]*$/,
      'function',
    ],
    [/^(?:typedef\s+)?(struct|enum|union|class|namespace)\s+([A-Za-z_]\w*)/, '$1'],
    [/^#define\s+([A-Za-z_]\w*)/, 'define'],
  ],
  shell: [[/^\s*(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)\s*\{?/, 'function']],
  elixir: [[/^\s*(defmodule|defp?|defmacro)\s+([A-Za-z_][\w.?!]*)/, '$1']],
  lua: [[/^\s*(?:local\s+)?function\s+([A-Za-z_][\w.:]*)/, 'function']],
  markdown: [[/^(#{1,3})\s+(.+?)\s*#*\s*$/, 'heading']],
};

const EXTENSIONS: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  vue: 'javascript',
  svelte: 'javascript',
  py: 'python',
  pyi: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  scala: 'java',
  groovy: 'java',
  kt: 'kotlin',
  kts: 'kotlin',
  cs: 'csharp',
  rb: 'ruby',
  rake: 'ruby',
  php: 'php',
  swift: 'swift',
  c: 'c',
  h: 'c',
  cc: 'c',
  cpp: 'c',
  cxx: 'c',
  hpp: 'c',
  hh: 'c',
  m: 'c',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  ex: 'elixir',
  exs: 'elixir',
  lua: 'lua',
  md: 'markdown',
  mdx: 'markdown',
  markdown: 'markdown',
};

const KEYWORDS = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'return',
  'else',
  'do',
  'try',
  'new',
  'function',
  'constructor',
]);

export function languageOf(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  if (name === 'makefile' || name === 'dockerfile') return undefined;
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : '';
  return EXTENSIONS[ext];
}

export function extractSymbols(path: string, content: string, max = 1000): SymbolDef[] {
  const rules = RULES[languageOf(path) ?? ''];
  if (!rules) return [];
  const out: SymbolDef[] = [];
  const lines = content.split('\n');
  for (let i = 0; i < lines.length && out.length < max; i++) {
    const line = lines[i] ?? '';
    if (line.length > 400) continue; // minified or generated: nothing useful, and slow to match
    const indented = /^\s/.test(line);
    for (const [pattern, kind, guard] of rules) {
      if (guard && !guard(line, indented)) continue;
      const m = pattern.exec(line);
      if (!m) continue;
      const two = m[2] !== undefined;
      const name = (two ? m[2] : m[1]) ?? '';
      if (!name || KEYWORDS.has(name)) continue;
      const resolvedKind = kind === '$1' ? (m[1] ?? kind) : kind === 'heading' ? 'heading' : kind;
      const topLevel = kind === 'heading' ? (m[1] ?? '').length <= 2 : !indented;
      out.push({ name: name.trim(), kind: resolvedKind, line: i + 1, topLevel });
      break;
    }
  }
  return out;
}
