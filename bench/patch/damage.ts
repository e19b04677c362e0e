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
