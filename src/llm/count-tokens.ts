/**
 * Token counts with the o200k_base encoding (GPT-4o and later), from js-tiktoken's rank table so
 * it works offline. Other model families tokenize differently; callers treat the count as an
 * estimate within roughly ±25%.
 *
 * Counted by `BpeCounter` (the same numbers as js-tiktoken's encoder, loaded in tens of
 * milliseconds instead of about a second).
 */
import { createRequire } from 'node:module';
import { BpeCounter, type BpeRanks } from './bpe-count.js';

let counter: BpeCounter | undefined;

/**
 * The rank table (2.3 MB of JavaScript, ~25 ms to load) is read on first use, not on import: a
 * process that imports countTokens starts without it (`autofix context` starts its worker
 * thread sooner).
 */
function loadCounter(): BpeCounter {
  const requireCjs = createRequire(import.meta.url);
  return new BpeCounter(requireCjs('js-tiktoken/ranks/o200k_base') as BpeRanks);
}

/**
 * Byte-pair merging is super-linear in the length of one pre-tokenized chunk: a run of 50,000
 * letters takes minutes. Such runs (minified or generated data) are estimated instead, at one
 * token per two characters, which over-counts: safe for budgets.
 */
const LONG_LETTER_RUN = /[\p{L}\p{M}]{48,}/gu;

export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  counter ??= loadCounter();
  let estimated = 0;
  const rest = text.replace(LONG_LETTER_RUN, (run) => {
    estimated += Math.ceil(run.length / 2);
    return ' ';
  });
  // Special-token text such as `<|endoftext|>` in a file is ordinary text here, not an error.
  return counter.count(rest) + estimated;
}

/** Tokens of a chat prompt: message texts plus a few tokens of framing per message. */
export function countMessageTokens(
  messages: readonly {
    content: string;
    toolCalls?: readonly { name: string; arguments: string }[];
  }[],
): number {
  const calls = (m: (typeof messages)[number]): number =>
    (m.toolCalls ?? []).reduce(
      (sum, c) => sum + countTokens(c.name) + countTokens(c.arguments) + 3,
      0,
    );
  return messages.reduce((sum, m) => sum + countTokens(m.content) + calls(m) + 4, 3);
}
