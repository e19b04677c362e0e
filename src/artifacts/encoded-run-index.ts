/**
 * Finds encoded secrets (base64 cores, hex, a PEM body) inside runs of base64/hex characters and
 * masks the whole run. The cost must not grow with the number of secrets: the redactor runs on
 * every log line and on command output up to 512 KiB. So the text is read once, with a rolling
 * hash of each window of `ANCHOR` characters looked up in a bit table built from the patterns'
 * first characters; only a hit (a real match, or a rare collision) compares strings.
 */
import { isEncodedChar as isRunChar } from './encoded-char.js';
import { joinWrappedLines } from './join-wrapped-lines.js';

export interface EncodedPattern {
  /** Only base64/hex alphabet characters, at least `ANCHOR` long. */
  text: string;
  /** What the mask says was there, e.g. `base64 of a secret`. */
  label: string;
}

export interface EncodedRunIndex {
  add(pattern: EncodedPattern): void;
  /** Replaces each run of encoded characters that contains a pattern with `****(label)`. */
  mask(text: string): string;
  /** The runs `mask` replaces, as [start, end) of `text`, with their labels. */
  find(text: string): { start: number; end: number; label: string }[];
}

/** The base64 core of a 6-byte secret (the shortest we register) is 7 characters. */
export const ANCHOR = 7;
const BASE = 0x01000193;
const POW = Array.from({ length: ANCHOR - 1 }).reduce<number>((p) => Math.imul(p, BASE), 1);
const TABLE_MASK = (1 << 16) - 1;

function anchorHash(text: string): number {
  let h = 0;
  for (let i = 0; i < ANCHOR; i++) h = (Math.imul(h, BASE) + text.charCodeAt(i)) | 0;
  return h;
}

export function createEncodedRunIndex(): EncodedRunIndex {
  const byAnchor = new Map<number, EncodedPattern[]>();
  const table = new Uint8Array(TABLE_MASK + 1);
  const seen = new Set<string>();

  const add = (pattern: EncodedPattern): void => {
    const { text } = pattern;
    if (text.length < ANCHOR || seen.has(text)) return;
    if (![...text].every((c) => isRunChar(c.charCodeAt(0))))
      throw new Error(`an encoded pattern may hold only base64/hex characters: ${pattern.label}`);
    seen.add(text);
    const h = anchorHash(text);
    table[h & TABLE_MASK] = 1;
    const list = byAnchor.get(h) ?? [];
    // Longest first, so a run is labelled by the most specific pattern.
    list.push(pattern);
    list.sort((a, b) => b.text.length - a.text.length);
    byAnchor.set(h, list);
  };

  /** Runs [start, end) of the joined text that hold a pattern, with the first pattern's label. */
  const findRuns = (s: string): { start: number; end: number; label: string }[] => {
    const found: { start: number; end: number; label: string }[] = [];
    let h = 0;
    let length = 0;
    for (let i = 0; i < s.length; i++) {
      const code = s.charCodeAt(i);
      if (!isRunChar(code)) {
        length = 0;
        h = 0;
        continue;
      }
      if (length >= ANCHOR) h = (h - Math.imul(s.charCodeAt(i - ANCHOR), POW)) | 0;
      h = (Math.imul(h, BASE) + code) | 0;
      length++;
      if (length < ANCHOR || table[h & TABLE_MASK] === 0) continue;
      const from = i - ANCHOR + 1;
      const hit = byAnchor.get(h)?.find((p) => s.startsWith(p.text, from));
      if (!hit) continue;
      let start = from;
      while (start > 0 && isRunChar(s.charCodeAt(start - 1))) start--;
      let end = from + hit.text.length;
      while (end < s.length && isRunChar(s.charCodeAt(end))) end++;
      found.push({ start, end, label: hit.label });
      i = end;
      length = 0;
      h = 0;
    }
    return found;
  };

  const find = (text: string): { start: number; end: number; label: string }[] => {
    if (seen.size === 0) return [];
    const joined = joinWrappedLines(text);
    return findRuns(joined.text).map((run) => ({
      start: joined.originalIndex(run.start),
      end: joined.originalIndex(run.end - 1) + 1,
      label: run.label,
    }));
  };

  const mask = (text: string): string => {
    let out = '';
    let last = 0;
    for (const run of find(text)) {
      out += `${text.slice(last, run.start)}****(${run.label})`;
      last = run.end;
    }
    return out + text.slice(last);
  };

  return { add, mask, find };
}
