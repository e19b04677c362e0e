/**
 * Grep-exact lookups a maintainer does first: where is `foo` DEFINED (not merely used), which
 * module raises "the quoted message", which file declares the `--flag` option. Over file
 * contents, with a cheap `includes` before any regular expression. Pure.
 */

export interface GrepFile {
  path: string;
  content: string;
}

export interface Hit {
  path: string;
  /** 1-based line of the match. */
  line: number;
  /** A message found only in part (four of its words in a row): weaker evidence. */
  partial?: boolean;
}

/** `s` as a literal inside a regular expression. */
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function lineAt(content: string, index: number): number {
  let line = 1;
  for (let i = content.indexOf('\n'); i !== -1 && i < index; i = content.indexOf('\n', i + 1))
    line++;
  return line;
}

/**
 * Declarations of `name` in the common languages: `function name`, `class name`, `def name`,
 * `func name` / `func (r T) name`, `type name`, `const|let|var name =`, `name = function`,
 * `x.name = …` (prototype and `exports.` assignments), `name: function`, `name(…) {` methods,
 * Python module-level `name =`.
 */
export function definitionPattern(name: string): RegExp {
  const n = escapeRegExp(name);
  return new RegExp(
    [
      `\\b(?:function\\*?|class|def|fn|func|interface|struct|trait|enum|type|module|object)\\s+${n}\\b`,
      `\\bfunc\\s+\\([^)]*\\)\\s*${n}\\s*[(\\[]`,
      `\\b(?:const|let|var|val)\\s+${n}\\s*[=:]`,
      `^\\s*(?:export\\s+)?(?:default\\s+)?(?:async\\s+)?${n}\\s*=\\s*(?:async\\s+)?(?:function|\\(|[A-Za-z_$][\\w$]*\\s*=>)`,
      `^[\\w$.]*\\.${n}\\s*=(?!=)`,
      `^\\s+[\\w$.]*\\.${n}\\s*=\\s*(?:async\\s+)?(?:function\\b|\\([^)\\n]*\\)\\s*=>|[A-Za-z_$][\\w$]*\\s*=>)`,
      `^\\s+(?:(?:public|private|protected|static|async|readonly|override|get|set)\\s+)*${n}\\s*(?:<[^>\\n]*>)?\\([^)\\n]*\\)\\s*(?::[^{\\n]+)?\\{`,
      `^\\s+['"]?${n}['"]?\\s*:\\s*(?:async\\s+)?(?:function\\b|\\([^)\\n]*\\)\\s*=>)`,
      `^${n}\\s*(?::[^=\\n]+)?=(?!=)`,
    ].join('|'),
    'm',
  );
}

/** Names prepared for `namesIn`: one pattern for them all. */
export interface NameMatcher {
  pattern: RegExp | undefined;
  /** Per name, the other names inside it. */
  within: ReadonlyMap<string, readonly string[]>;
  size: number;
}

export function nameMatcher(names: readonly string[]): NameMatcher {
  // Longest first, and every position tried: a name inside a longer one at the same place is
  // counted through `within`, one that overlaps the end of a match is met at its own start.
  const wanted = [...new Set(names)]
    .filter((n) => n !== '')
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  return {
    pattern: wanted.length > 0 ? new RegExp(wanted.map(escapeRegExp).join('|'), 'g') : undefined,
    within: new Map(wanted.map((n) => [n, wanted.filter((m) => m !== n && n.includes(m))])),
    size: wanted.length,
  };
}

/** The names `text` holds (as `text.includes(name)` would say), in one pattern scan. */
export function namesIn(text: string, matcher: NameMatcher): string[] {
  const found = new Set<string>();
  const pattern = matcher.pattern;
  if (!pattern) return [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    if (!found.has(m[0])) {
      found.add(m[0]);
      for (const inner of matcher.within.get(m[0]) ?? []) found.add(inner);
      if (found.size === matcher.size) break;
    }
    pattern.lastIndex = m.index + 1;
  }
  return [...found];
}

/**
 * For each name, the files whose text holds it, by one scan per file rather than one per name
 * (an issue names dozens); `held` gives what another thread already found (`namesIn`) by path.
 */
export function filesHolding<F extends GrepFile>(
  files: readonly F[],
  names: readonly string[],
  held?: ReadonlyMap<string, readonly string[]>,
): Map<string, F[]> {
  const out = new Map<string, F[]>(names.map((n) => [n, []]));
  const matcher = nameMatcher(names);
  for (const f of files)
    for (const n of held?.get(f.path) ?? namesIn(f.content, matcher)) out.get(n)?.push(f);
  return out;
}

/**
 * Where `pattern` first matches in `content` from `from` (a line start): the index of `name` in
 * that match, or -1. For a pattern that holds `name` literally, as every lookup here does: it is
 * tried only around the occurrences of `name` (a native `indexOf`), on the occurrence's line with
 * the lines before and after it (a call opened on the line above, `config.get(` / `"name",`; a
 * definition that runs on, `exports.x =` / `function () {`). The pattern tried at every position
 * of every file that holds the name cost tens of milliseconds per name over a large repository.
 */
export function matchNear(content: string, name: string, pattern: RegExp, from = 0): number {
  for (let at = content.indexOf(name, from); at >= 0;) {
    const lineStart = at === 0 ? 0 : content.lastIndexOf('\n', at - 1) + 1;
    const start = Math.max(from, lineStart < 2 ? 0 : content.lastIndexOf('\n', lineStart - 2) + 1);
    const eol = content.indexOf('\n', at + name.length);
    const next = eol < 0 ? -1 : content.indexOf('\n', eol + 1);
    const m = pattern.exec(content.slice(start, next < 0 ? content.length : next));
    if (m) return start + m.index + Math.max(0, m[0].indexOf(name));
    // The line's other occurrences had this same window: on to the next line (a minified line
    // holding the name thousands of times is tried once, not scanned back once per occurrence).
    if (eol < 0) break;
    at = content.indexOf(name, eol + 1);
  }
  return -1;
}

/**
 * Files that define `name`, with the line of the first definition. With `limit`, it stops at
 * `limit + 1` files: a caller for whom more than `limit` say nothing need not read the rest.
 */
export function findDefinitions(files: readonly GrepFile[], name: string, limit = Infinity): Hit[] {
  return findNear(files, name, definitionPattern(name), limit);
}

/** Files where `pattern` (which holds `name` literally) matches, by `matchNear`; as above. */
function findNear(files: readonly GrepFile[], name: string, pattern: RegExp, limit: number): Hit[] {
  const out: Hit[] = [];
  for (const f of files) {
    const at = matchNear(f.content, name, pattern);
    if (at >= 0) out.push({ path: f.path, line: lineAt(f.content, at) });
    if (out.length > limit) break;
  }
  return out;
}

/**
 * The literal pieces of a message that the source can hold verbatim: the text between the
 * values an f-string, `%s` or template filled in (quoted words, numbers, paths), longest first.
 */
export function messageFragments(message: string): string[] {
  const pieces = message
    .split(/'[^']*'|"[^"]*"|`[^`]*`|<[^>]*>|\b\d[\w.:-]*|\S*[/\\]\S*|\{[^}]*\}|\[[^\]]*\]/)
    .map((p) => p.replace(/^[\s:,.;-]+|[\s:,.;-]+$/g, ''))
    .filter((p) => p.length >= 12 && p.split(/\s+/).length >= 2);
  return [...new Set(pieces)].sort((a, b) => b.length - a.length).slice(0, 4);
}

/** Files whose text holds a message's longest literal fragment (or the next one if none does). */
export function findMessage(files: readonly GrepFile[], message: string): Hit[] {
  const holding = (text: string): Hit[] => {
    const out: Hit[] = [];
    for (const f of files) {
      const i = f.content.indexOf(text);
      if (i >= 0) out.push({ path: f.path, line: lineAt(f.content, i) });
    }
    return out;
  };
  const fragments = messageFragments(message);
  for (const fragment of fragments) {
    const out = holding(fragment);
    if (out.length > 0) return out;
  }
  // A value filled in without quotes (`Cannot resolve keyword foo into field`): the runs of
  // four words the source holds verbatim in a string (not a comment); the run held by the
  // fewest files tells most.
  const inString = (text: string): Hit[] => {
    const out: Hit[] = [];
    for (const f of files) {
      for (let i = f.content.indexOf(text); i >= 0; i = f.content.indexOf(text, i + 1)) {
        const start = f.content.lastIndexOf('\n', i) + 1;
        const before = f.content.slice(start, i);
        if (/^\s*(#|\/\/|\*|\/\*)/.test(before) || !/["'`]/.test(before)) continue;
        out.push({ path: f.path, line: lineAt(f.content, i) });
        break;
      }
    }
    return out;
  };
  let best: Hit[] = [];
  for (const fragment of fragments) {
    const words = fragment.split(/\s+/);
    for (let i = 0; i + 4 <= words.length; i++) {
      const run = words.slice(i, i + 4).join(' ');
      if (run.length < 16) continue;
      const out = inString(run);
      if (out.length > 0 && (best.length === 0 || out.length < best.length)) best = out;
    }
  }
  return best.map((h) => ({ ...h, partial: true }));
}

/** Files that declare a command-line option: the flag as a string literal (`'--max-age'`). */
export function findOption(files: readonly GrepFile[], option: string): Hit[] {
  const bare = option.replace(/^-+/, '');
  // The bare name only when it cannot be an ordinary word (`"max-depth"`, not `"color"`).
  const forms = [`"${option}"`, `'${option}'`, `"${option}=`, `'${option}=`];
  if (/[-_]/.test(bare)) forms.push(`"${bare}"`, `'${bare}'`);
  const out: Hit[] = [];
  for (const f of files) {
    if (!f.content.includes(bare)) continue;
    for (const form of forms) {
      const i = f.content.indexOf(form);
      if (i >= 0) {
        out.push({ path: f.path, line: lineAt(f.content, i) });
        break;
      }
    }
  }
  return out;
}

/**
 * Where a name that nothing defines lives: a key (`'scp_if_ssh'`, `get_option("timeout")`,
 * `kwargs["batch_size"]`), an attribute set on an instance (`self.batch_size = …`), or a
 * parameter (`def fit(self, X, sample_weight=None)`, or a line of a signature that runs over
 * several: `    sample_weight: float = 1.0,`). With `limit`, as `findDefinitions`.
 */
export function usePattern(name: string): RegExp {
  const n = escapeRegExp(name);
  return new RegExp(
    [
      `['"]${n}['"]`,
      `\\b(?:self|this)\\.${n}\\s*=(?!=)`,
      `^\\s*(?:async\\s+)?def\\s+\\w+\\s*\\((?:[^()\\n]|\\([^()\\n]*\\))*\\b${n}\\s*[:=,)]`,
      `^\\s+\\*{0,2}${n}\\s*(?::[^=\\n]+)?(?:=[^=\\n][^\\n]*)?,\\s*$`,
    ].join('|'),
    'm',
  );
}

export const findUses = (files: readonly GrepFile[], name: string, limit = Infinity): Hit[] =>
  findNear(files, name, usePattern(name), limit);
