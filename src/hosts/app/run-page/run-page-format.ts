/** How the run page writes times, sizes and money, and how it crops long text. */
import { formatDuration } from '../../../text/markdown.js';

export { formatDuration };

export const at = (ms: number | undefined): string =>
  ms === undefined
    ? '—'
    : new Date(ms)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC');

export const tokens = (n: number): string => n.toLocaleString('en-US');

export const usd = (n: number): string => `$${n.toFixed(4)}`;

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The first `max` characters of a text, cut at a line end, and how many were left out. */
export function cropHead(text: string, max: number): { shown: string; cut: number } {
  if (text.length <= max) return { shown: text, cut: 0 };
  const end = text.lastIndexOf('\n', max);
  const shown = text.slice(0, end > max / 2 ? end : max);
  return { shown, cut: text.length - shown.length };
}

/** The last `max` characters of a text (where runners print failures), and how many were cut. */
export function cropTail(text: string, max: number): { shown: string; cut: number } {
  if (text.length <= max) return { shown: text, cut: 0 };
  const start = text.indexOf('\n', text.length - max);
  const shown = text.slice(start >= 0 && start < text.length - max / 2 ? start + 1 : -max);
  return { shown, cut: text.length - shown.length };
}

/** Only web addresses become links (a `javascript:` URL in a record stays text). */
export const isWebUrl = (url: string): boolean => /^https?:\/\/[^\s]+$/i.test(url);
