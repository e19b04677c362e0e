import type { DiffFile } from './diff-model.js';
import type { Rng } from './prng.js';

/** One kind of damage an LLM does to a diff (issue 3, item 2), applied in place. */
export type Damage = (files: DiffFile[], rng: Rng) => void;

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;

function mapHeaders(files: DiffFile[], fn: (m: RegExpExecArray) => string): void {
  for (const f of files)
    for (const h of f.hunks) {
      const m = HEADER.exec(h.header);
      if (m) h.header = fn(m);
    }
}

/** LLMs rarely copy git's function heading; damaged diffs go without it. */
export const dropHeadings: Damage = (files) =>
  mapHeaders(
    files,
    (m) =>
      `@@ -${m[1]}${m[2] === undefined ? '' : `,${m[2]}`} +${m[3]}${m[4] === undefined ? '' : `,${m[4]}`} @@`,
  );

export const wrongLineNumbers: Damage = (files, rng) =>
  mapHeaders(files, (m) => {
    const shift = rng.pick([-1, 1]) * rng.int(2, 40);
    const o = Math.max(1, Number(m[1]) + shift);
    const n = Math.max(1, Number(m[3]) + shift);
    return `@@ -${o},${m[2] ?? 1} +${n},${m[4] ?? 1} @@`;
  });

export const wrongLineCounts: Damage = (files, rng) =>
  mapHeaders(files, (m) => {
    const bump = (v: string | undefined): number =>
      Math.max(0, Number(v ?? 1) + rng.pick([-3, -2, -1, 1, 2, 4]));
    return `@@ -${m[1]},${bump(m[2])} +${m[3]},${bump(m[4])} @@`;
  });

export const bareHeaders: Damage = (files) => mapHeaders(files, () => '@@ @@');

export const noGitHeaders: Damage = (files) => {
  for (const f of files)
    f.header = f.header.filter((l) => l.startsWith('--- ') || l.startsWith('+++ '));
};

export const noPrefixes: Damage = (files) => {
  for (const f of files)
    f.header = f.header.map((l) =>
      l.startsWith('--- a/')
        ? `--- ${l.slice(6)}`
        : l.startsWith('+++ b/')
          ? `+++ ${l.slice(6)}`
          : l.startsWith('diff --git ')
            ? l.replace(/ a\//, ' ').replace(/ b\//, ' ')
            : l,
    );
};

function contextLines(files: DiffFile[], fn: (text: string) => string, p = 1, rng?: Rng): void {
  for (const f of files)
    for (const h of f.hunks)
      h.lines = h.lines.map((l) =>
        l.startsWith(' ') && (p >= 1 || rng?.chance(p)) ? ` ${fn(l.slice(1))}` : l,
      );
}

export const tabSpaceDrift: Damage = (files, rng) =>
  contextLines(
    files,
    (text) => {
      const indent = /^\s*/.exec(text)?.[0] ?? '';
      const body = text.slice(indent.length);
      if (indent.includes('\t')) return indent.replace(/\t/g, '    ') + body;
      const unit = indent.length % 4 === 0 ? 4 : 2;
      return (
        '\t'.repeat(Math.floor(indent.length / unit)) + ' '.repeat(indent.length % unit) + body
      );
    },
    0.6,
    rng,
  );

export const blankContextNoSpace: Damage = (files) => {
  for (const f of files)
    for (const h of f.hunks) h.lines = h.lines.map((l) => (l === ' ' ? '' : l));
};

export const outOfOrder: Damage = (files) => {
  for (const f of files) f.hunks.reverse();
};

export const trailingWhitespaceDropped: Damage = (files) => {
  for (const f of files)
    for (const h of f.hunks)
      h.lines = h.lines.map((l) =>
        l.startsWith(' ') || l.startsWith('-') ? l.trimEnd() || l[0] || '' : l,
      );
};

export const noEofMarker: Damage = (files) => {
  for (const f of files)
    for (const h of f.hunks) h.lines = h.lines.filter((l) => !l.startsWith('\\'));
};

function mutate(text: string, rng: Rng): string {
  const words = text.split(/(\s+)/);
  const kind = rng.int(0, 3);
  if (kind === 0 && words.filter((w) => /\S/.test(w)).length >= 3) {
    const idx = words.flatMap((w, i) =>
      /\S/.test(w) && i + 2 < words.length && /\S/.test(words[i + 2] ?? '') ? [i] : [],
    );
    if (idx.length > 0) {
      const i = rng.pick(idx);
      [words[i], words[i + 2]] = [words[i + 2] ?? '', words[i] ?? ''];
      const out = words.join('');
      if (out !== text) return out;
    }
  }
  const letters = [...text].flatMap((c, i) => (/[A-Za-z0-9]/.test(c) ? [i] : []));
  if (letters.length === 0) return text;
  const i = rng.pick(letters);
  const c = text[i] ?? 'x';
  const repl =
    kind === 1
      ? ''
      : kind === 2
        ? c + rng.pick(['s', 'e', '_'])
        : c === 'e'
          ? 'a'
          : /\d/.test(c)
            ? String((Number(c) + 1) % 10)
            : 'e';
  return text.slice(0, i) + repl + text.slice(i + 1);
}

/** One context line per hunk (in about half the hunks, at least one) is quoted slightly wrong. */
export const misquotedContext: Damage = (files, rng) => {
  const hunks = files.flatMap((f) => f.hunks);
  const chosen = hunks.filter((_, i) => i === 0 || rng.chance(0.5));
  for (const h of chosen) {
    const idx = h.lines.flatMap((l, i) => (l.startsWith(' ') && l.trim().length >= 6 ? [i] : []));
    if (idx.length === 0) continue;
    const i = rng.pick(idx);
    h.lines[i] = ` ${mutate((h.lines[i] ?? ' ').slice(1), rng)}`;
  }
};

const isCreation = (f: DiffFile): boolean =>
  f.header.some((l) => l === '--- /dev/null' || l.startsWith('new file mode'));

/** Hunk lines that an indentation shift touches: not in created files, not blank, not `\ …`. */
function shiftable(files: DiffFile[]): { hunk: { lines: string[] }; i: number }[] {
  return files
    .filter((f) => !isCreation(f))
    .flatMap((f) =>
      f.hunks.flatMap((hunk) =>
        hunk.lines.flatMap((l, i) =>
          /^[ +-]/.test(l) && l.slice(1).trim() !== '' ? [{ hunk, i }] : [],
        ),
      ),
    );
}

/** Whether every non-blank hunk line (of files that exist before) starts with `unit`. */
export const canUnindent = (files: DiffFile[], unit: string): boolean =>
  shiftable(files).every(({ hunk, i }) => (hunk.lines[i] ?? '').slice(1).startsWith(unit));

/**
 * A model re-indents the quoted snippet: every context, removed and added line of every hunk gets
 * `unit` more (sign 1) or less (sign -1) indentation; blank lines stay blank. Created files are
 * the model's own text, not a quote, and stay as they are. Check `canUnindent` before sign -1.
 */
export const indentShift =
  (unit: string, sign: 1 | -1): Damage =>
  (files) => {
    for (const { hunk, i } of shiftable(files)) {
      const l = hunk.lines[i] ?? '';
      const text = l.slice(1);
      hunk.lines[i] =
        l[0] + (sign > 0 ? unit + text : text.startsWith(unit) ? text.slice(unit.length) : text);
    }
  };

/** `@@ ... @@` on every hunk (aider's udiff prompt). */
export const headerDots: Damage = (files) => mapHeaders(files, () => '@@ ... @@');

/** A bare `@@` on every hunk. */
export const headerBareAt: Damage = (files) => mapHeaders(files, () => '@@');

const width = (line: string): number => {
  let w = 0;
  for (const c of /^[ \t]*/.exec(line)?.[0] ?? '') w = c === '\t' ? w - (w % 4) + 4 : w + 1;
  return w;
};

/**
 * The heading each hunk of `gold` would carry in OpenAI's apply_patch style: git's own heading
 * when it wrote one; else the nearest non-blank line above the hunk's first (non-blank) line in
 * the original file that is less indented than it, trimmed; else nothing (a bare `@@`).
 */
export function scopeHeadings(gold: DiffFile[], original: ReadonlyMap<string, string>): string[][] {
  return gold.map((f) => {
    const minus = f.header.find((l) => l.startsWith('--- '));
    const path = minus?.startsWith('--- a/') ? minus.slice(6).split('\t')[0] : undefined;
    const text = path === undefined ? undefined : original.get(path);
    const lines = text?.split('\n') ?? [];
    return f.hunks.map((h) => {
      const m = HEADER.exec(h.header);
      const git = (m?.[5] ?? '').trim();
      if (git !== '' || !m || text === undefined) return git;
      const start = Number(m[1]) - 1;
      const oldSide = h.lines.filter((l) => l.startsWith(' ') || l.startsWith('-'));
      const first = oldSide.map((l) => l.slice(1)).find((l) => l.trim() !== '');
      if (first === undefined) return '';
      for (let i = start - 1; i >= 0; i--) {
        const above = lines[i] ?? '';
        if (above.trim() !== '' && width(above) < width(first)) return above.trim();
      }
      return '';
    });
  });
}

/** `@@ <heading>` on every hunk, from `scopeHeadings` of the same (unreordered) diff. */
export const headerFunction =
  (headings: string[][]): Damage =>
  (files) =>
    files.forEach((f, fi) =>
      f.hunks.forEach((h, hi) => {
        const heading = headings[fi]?.[hi] ?? '';
        h.header = heading === '' ? '@@' : `@@ ${heading}`;
      }),
    );
