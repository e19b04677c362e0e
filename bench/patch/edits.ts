import type { Rng } from './prng.js';

/** A realistic source edit on a file's lines; undefined when the file offers no place for it. */
export type Edit = (lines: readonly string[], rng: Rng, lang: 'js' | 'py') => string[] | undefined;

const WORDS = [
  'cache',
  'token',
  'limit',
  'payload',
  'entry',
  'buffer',
  'record',
  'option',
  'handler',
  'cursor',
  'scope',
  'target',
];
const SUFFIXES = ['Value', 'Next', 'Result', 'Item', 'Ref', 'Count'];

function indentUnit(lines: readonly string[]): string {
  if (lines.filter((l) => l.startsWith('\t')).length > lines.length / 10) return '\t';
  const widths = lines.map((l) => /^( +)\S/.exec(l)?.[1]?.length ?? 0).filter((w) => w > 0);
  return ' '.repeat(widths.length > 0 && Math.min(...widths) <= 2 ? 2 : 4);
}

const escapeRe = (s: string): string => s.replace(/[$]/g, '\\$');

export const renameIdentifier: Edit = (lines, rng, lang) => {
  const decl =
    lang === 'py'
      ? /^\s*([a-z_][a-z0-9_]{2,})\s*=[^=]/
      : /\b(?:const|let|var)\s+([A-Za-z_$][\w$]{2,})\b/;
  const names = [...new Set(lines.flatMap((l) => decl.exec(l)?.[1] ?? []))].filter((name) => {
    const re = new RegExp(`(?<![\\w$])${escapeRe(name)}(?![\\w$])`, 'g');
    const count = lines.reduce((n, l) => n + (l.match(re)?.length ?? 0), 0);
    return count >= 2 && count <= 10;
  });
  if (names.length === 0) return undefined;
  const name = rng.pick(names);
  const renamed = lang === 'py' ? `${name}_${rng.pick(WORDS)}` : `${name}${rng.pick(SUFFIXES)}`;
  const re = new RegExp(`(?<![\\w$])${escapeRe(name)}(?![\\w$])`, 'g');
  return lines.map((l) => l.replace(re, renamed));
};

const CONDITION_SWAPS: [string, string][] = [
  [' === ', ' !== '],
  [' !== ', ' === '],
  [' == ', ' != '],
  [' != ', ' == '],
  [' < ', ' <= '],
  [' > ', ' >= '],
  [' && ', ' || '],
  [' || ', ' && '],
  [' and ', ' or '],
  [' or ', ' and '],
  [' is None', ' is not None'],
];

export const changeCondition: Edit = (lines, rng, lang) => {
  const cond = lang === 'py' ? /^\s*(if|elif|while)\s.*:\s*$/ : /\b(if|while)\s*\(/;
  const options = lines.flatMap((l, i) =>
    cond.test(l) ? CONDITION_SWAPS.filter(([a]) => l.includes(a)).map((s) => ({ i, s })) : [],
  );
  if (options.length === 0) return undefined;
  const { i, s } = rng.pick(options);
  const out = [...lines];
  out[i] = (out[i] ?? '').replace(s[0], s[1]);
  return out;
};

export const addFunction: Edit = (lines, rng, lang) => {
  const unit = indentUnit(lines);
  const name = `${rng.pick(WORDS)}${rng.pick(SUFFIXES)}`;
  if (lang === 'py') {
    const spots = lines.flatMap((l, i) =>
      i > 0 && /^(def|class) /.test(l) && lines[i - 1] === '' ? [i] : [],
    );
    if (spots.length === 0) return undefined;
    const at = rng.pick(spots);
    const fn = [
      `def ${name.toLowerCase()}_helper(value, default=None):`,
      `${unit}"""Return a normalised ${rng.pick(WORDS)}."""`,
      `${unit}if value is None:`,
      `${unit}${unit}return default`,
      `${unit}return str(value).strip().lower()`,
      '',
      '',
    ];
    return [...lines.slice(0, at), ...fn, ...lines.slice(at)];
  }
  const spots = lines.flatMap((l, i) => (/^\};?$/.test(l) && lines[i + 1] === '' ? [i + 1] : []));
  if (spots.length === 0) return undefined;
  const at = rng.pick(spots);
  const fn = [
    '',
    `function ${name}(input) {`,
    `${unit}if (input === undefined || input === null) {`,
    `${unit}${unit}return '${rng.pick(WORDS)}';`,
    `${unit}}`,
    `${unit}const text = String(input);`,
    `${unit}return text.trim().toLowerCase();`,
    '}',
  ];
  return [...lines.slice(0, at), ...fn, ...lines.slice(at)];
};

export const deleteBlock: Edit = (lines, rng) => {
  const len = rng.int(1, 5);
  const starts = lines.flatMap((_, i) => {
    const block = lines.slice(i, i + len);
    return block.length === len &&
      block.every((l) => /^\s+\S/.test(l) && !/^\s*[{}()[\]]*;?$/.test(l))
      ? [i]
      : [];
  });
  if (starts.length === 0) return undefined;
  const at = rng.pick(starts);
  return [...lines.slice(0, at), ...lines.slice(at + len)];
};

export const modifyLiteral: Edit = (lines, rng) => {
  const spots = lines.flatMap((l, i) =>
    /^\s+.*(['"])[\w .-]{2,30}\1/.test(l) || /^\s+.*[^\w.]\d{1,4}\b/.test(l) ? [i] : [],
  );
  if (spots.length === 0) return undefined;
  const i = rng.pick(spots);
  const out = [...lines];
  const line = out[i] ?? '';
  const str = /(['"])([\w .-]{2,30})\1/.exec(line);
  out[i] = str
    ? line.replace(str[0], `${str[1]}${str[2]}-${rng.pick(WORDS)}${str[1]}`)
    : line.replace(
        /([^\w.])(\d{1,4})\b/,
        (_, p: string, d: string) => `${p}${Number(d) + rng.int(1, 9)}`,
      );
  return out[i] === line ? undefined : out;
};

export const insertStatement: Edit = (lines, rng, lang) => {
  const spots = lines.flatMap((l, i) =>
    (lang === 'py' ? /^\s+[a-z_][\w.]* = .*[^:,(\\[{]$/.test(l) : /^\s+\S.*;$/.test(l)) ? [i] : [],
  );
  if (spots.length === 0) return undefined;
  const i = rng.pick(spots);
  const indent = /^\s*/.exec(lines[i] ?? '')?.[0] ?? '';
  const word = rng.pick(WORDS);
  const stmt =
    lang === 'py'
      ? `${indent}logger.debug("${word} checkpoint %s", ${word.length})`
      : `${indent}debugLog('${word}', ${rng.int(1, 99)});`;
  return [...lines.slice(0, i + 1), stmt, ...lines.slice(i + 1)];
};

export const EDITS: readonly Edit[] = [
  renameIdentifier,
  changeCondition,
  addFunction,
  deleteBlock,
  modifyLiteral,
  insertStatement,
];

/** A new source file, for cases that create one. */
export function newModule(rng: Rng, lang: 'js' | 'py'): string {
  const name = rng.pick(WORDS);
  if (lang === 'py')
    return `"""Helpers for ${name} handling."""\n\n\ndef parse_${name}(raw):\n    if not raw:\n        return None\n    return raw.strip()\n`;
  return `'use strict';\n\n/** Helpers for ${name} handling. */\nfunction parse${name}(raw) {\n  if (!raw) {\n    return null;\n  }\n  return raw.trim();\n}\n\nmodule.exports = { parse${name} };\n`;
}

/** An edit at the very end of the file, for the missing-final-newline cases. */
export const editAtEnd: Edit = (lines, rng, lang) => {
  const out = [...lines];
  if (rng.chance(0.5) && (out[out.length - 1] ?? '').trim() !== '') {
    out[out.length - 1] =
      `${out[out.length - 1]} ${lang === 'py' ? '#' : '//'} ${rng.pick(WORDS)} updated`;
    return out;
  }
  const word = rng.pick(WORDS);
  return [
    ...out,
    lang === 'py'
      ? `${word.toUpperCase()}_VERSION = "${rng.int(1, 9)}.0"`
      : `exports.${word}Version = '${rng.int(1, 9)}.0';`,
  ];
};

const indentOf = (line: string): string => /^\s*/.exec(line)?.[0] ?? '';

function statement(rng: Rng, lang: 'js' | 'py', indent: string): string {
  const word = rng.pick(WORDS);
  return lang === 'py'
    ? `${indent}logger.debug("${word} reached %s", ${rng.int(1, 99)})`
    : `${indent}debugLog('${word}', ${rng.int(1, 99)});`;
}

/**
 * An edit whose one-line-context hunk is hard to place: a statement inserted after a line whose
 * text occurs at least 3 times in the file (`}`, `return;`, `pass`, a blank line…), that line
 * itself changed, or the line right after it changed. Half the time only spots where the line and
 * its successor occur together more than once are taken, so the hunk's text alone cannot tell
 * where it goes.
 */
export const editNearRepeated: Edit = (lines, rng, lang) => {
  const counts = new Map<string, number>();
  for (const l of lines) counts.set(l, (counts.get(l) ?? 0) + 1);
  const pairs = new Map<string, number>();
  for (let i = 0; i + 1 < lines.length; i++) {
    const k = `${lines[i]}\n${lines[i + 1]}`;
    pairs.set(k, (pairs.get(k) ?? 0) + 1);
  }
  // Block comments and docstring delimiters are not code to put a statement after or a comment on.
  const prose = (i: number): boolean => /^\s*(\/\*|\*(?!\/)|\/\/|#|"""|''')/.test(lines[i] ?? '');
  const repeated = (i: number): boolean => (counts.get(lines[i] ?? '') ?? 0) >= 3 && !prose(i);
  const pairRepeated = (i: number): boolean =>
    (pairs.get(`${lines[i]}\n${lines[i + 1]}`) ?? 0) >= 2;
  const comment = lang === 'py' ? '  #' : ' //';
  const kinds: {
    spot: (i: number) => boolean;
    pairAt: (i: number) => number;
    apply: (i: number) => string[] | undefined;
  }[] = [
    {
      // insert after a repeated line
      // …where a statement may follow: not inside an open call, list or expression
      spot: (i) =>
        i + 1 < lines.length &&
        repeated(i) &&
        !/[([{,\\+\-*/=&|.]\s*$/.test(lines[i] ?? '') &&
        !/^\s*[.)\]]/.test(lines[i + 1] ?? ''),
      pairAt: (i) => i,
      apply: (i) => {
        const next = lines[i + 1] ?? '';
        const indent = next.trim() !== '' ? indentOf(next) : indentOf(lines[i] ?? '');
        return [...lines.slice(0, i + 1), statement(rng, lang, indent), ...lines.slice(i + 1)];
      },
    },
    {
      // change the repeated line itself
      spot: (i) => i > 0 && repeated(i) && (lines[i] ?? '').trim() !== '',
      pairAt: (i) => i - 1,
      apply: (i) => {
        const out = [...lines];
        const line = out[i] ?? '';
        if (/\\$/.test(line)) return undefined;
        out[i] = `${line}${comment} ${rng.pick(WORDS)} checked`;
        return out;
      },
    },
    {
      // change the line right after a repeated line
      spot: (i) =>
        i > 0 &&
        repeated(i - 1) &&
        !prose(i) &&
        (lines[i] ?? '').trim() !== '' &&
        !/\\$/.test(lines[i] ?? '') &&
        !/^\s*[{}()[\]]*;?$/.test(lines[i] ?? ''),
      pairAt: (i) => i - 1,
      apply: (i) => {
        const out = [...lines];
        out[i] = `${out[i]}${comment} ${rng.pick(WORDS)} checked`;
        return out;
      },
    },
  ];
  const kind = rng.pick(kinds);
  const spots = lines.flatMap((_, i) => (kind.spot(i) ? [i] : []));
  if (spots.length === 0) return undefined;
  const strong = spots.filter((i) => pairRepeated(kind.pairAt(i)));
  return kind.apply(rng.pick(strong.length > 0 && rng.chance(0.5) ? strong : spots));
};

const LOOKALIKE: [string, RegExp][] = [
  ['import', /^(?:import\s|from\s+\S+\s+import\s|(?:const|let|var)\s+.*=\s*require\()/],
  ['property', /^\s+[\w$'"]+\s*:\s*\S.*,$/],
  ['entry', /^\s+(['"]).*\1,$/],
  ['attribute', /^\s+self\.\w+ = \S/],
  ['assignment', /^[A-Z_][A-Z0-9_]* = \S/],
];
const KEYWORDS = new Set([
  'import',
  'from',
  'const',
  'let',
  'var',
  'require',
  'self',
  'this',
  'return',
  'true',
  'false',
  'null',
  'None',
  'True',
  'False',
]);

/**
 * A pure insertion: one line inserted among lines that look alike (imports, object properties,
 * list entries, `self.x = …`, constants), modelled on the line before it with one word renamed.
 */
export const insertLookalike: Edit = (lines, rng, lang) => {
  const kindOf = (l: string | undefined): string | undefined =>
    l === undefined
      ? undefined
      : LOOKALIKE.find(([, re]) => re.test(l))?.[0]?.concat(':', indentOf(l));
  const spots = lines.flatMap((l, i) => {
    const k = kindOf(l);
    if (k === undefined) return [];
    const near = [i - 2, i - 1, i + 1, i + 2].filter((j) => kindOf(lines[j]) === k).length;
    return near >= 2 ? [i] : [];
  });
  const existing = new Set(lines);
  for (const i of rng.shuffle(spots)) {
    const line = lines[i] ?? '';
    const words = [...line.matchAll(/[A-Za-z_$][\w$]{2,}/g)].filter((m) => !KEYWORDS.has(m[0]));
    const w = words[0];
    if (w?.index === undefined) continue;
    const fresh =
      lang === 'py'
        ? `${rng.pick(WORDS)}_${rng.pick(SUFFIXES).toLowerCase()}`
        : `${rng.pick(WORDS)}${rng.pick(SUFFIXES)}`;
    const made = line.slice(0, w.index) + fresh + line.slice(w.index + w[0].length);
    if (existing.has(made)) continue;
    return [...lines.slice(0, i + 1), made, ...lines.slice(i + 1)];
  }
  return undefined;
};
