import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { BpeCounter, type BpeRanks } from '../../../src/llm/bpe-count.js';
import { countTokens } from '../../../src/llm/count-tokens.js';

const ours = new BpeCounter(o200kBase);
// js-tiktoken's own encoder: the reference (slow to build: about a second).
// (Speed is measured by `npm run bench:context-speed`, not here: timings under jest are noise.)
const reference = new Tiktoken(o200kBase);
const referenceCount = (text: string): number => reference.encode(text, [], []).length;

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Random text from a mix of alphabets, digits, spaces, punctuation and odd code points. */
function randomText(rand: () => number, length: number): string {
  const ranges: [number, number][] = [
    [0x20, 0x7e], // ASCII
    [0x20, 0x7e],
    [0x20, 0x7e],
    [0x09, 0x0d], // tabs and line breaks
    [0xc0, 0x17f], // Latin accents
    [0x300, 0x36f], // combining marks
    [0x391, 0x3c9], // Greek
    [0x410, 0x44f], // Cyrillic
    [0x5d0, 0x5ea], // Hebrew
    [0x627, 0x64a], // Arabic
    [0x3041, 0x30ff], // kana
    [0x4e00, 0x4fff], // CJK
    [0xac00, 0xacff], // Hangul
    [0x1f300, 0x1f64f], // emoji
    [0xd800, 0xdfff], // lone surrogates
    [0xe000, 0xe0ff], // private use
  ];
  let out = '';
  while (out.length < length) {
    const [lo, hi] = ranges[Math.floor(rand() * ranges.length)]!;
    const run = 1 + Math.floor(rand() * 12);
    for (let i = 0; i < run; i++)
      out += String.fromCodePoint(lo + Math.floor(rand() * (hi - lo + 1)));
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

describe('BpeCounter (o200k_base)', () => {
  it('holds exactly js-tiktoken’s rank table', () => {
    const rankMap = (reference as unknown as { rankMap: Map<string, number> }).rankMap;
    expect(ours.size).toBe(rankMap.size);
    for (const [key, rank] of rankMap) {
      const bytes = Uint8Array.from(key.split(',').map(Number));
      if (ours.rankOf(bytes) !== rank)
        throw new Error(`rank of ${key}: ${ours.rankOf(bytes)} ≠ ${rank}`);
    }
    // Every single byte is a token, so every piece can be counted.
    for (let b = 0; b < 256; b++) expect(ours.rankOf(Uint8Array.of(b))).toBeDefined();
    expect(ours.rankOf(new TextEncoder().encode('not a token at all, surely'))).toBeUndefined();
  });

  it.each([
    ['empty', ''],
    ['plain English', 'The quick brown fox jumps over the lazy dog. It’s 3:45pm, isn’t it?'],
    ['contractions', "I'm sure they'll say we've done what you'd DO'NT'S"],
    ['code', 'export function calculateLateFee(invoice: Invoice): number {\n  return x ?? 0;\n}\n'],
    ['CRLF and tabs', 'a\r\n\tb\r\n\r\n\t\t  c  \n\n\n   '],
    ['digits', '1234567890 3.14159 1e-10 0x1F 00000000000000000000'],
    ['special-token text', 'before <|endoftext|> middle <|endofprompt|> after <|fim_prefix|>'],
    [
      'letter runs just under the estimate',
      `${'a'.repeat(47)} ${'Zy'.repeat(23)} ${'é'.repeat(40)}`,
    ],
    ['punctuation runs', `${'='.repeat(500)}\n${'-*'.repeat(300)}\n//////\n`],
    ['whitespace runs', `${' '.repeat(1000)}x${'\n'.repeat(200)}y\t \t `],
    ['CJK', '注文の合計金額を計算します。我们的系统支持多种语言。한국어 텍스트도 있습니다.'],
    ['accents and marks', 'Größere Beträge; naïve café; e\u0301\u0301\u0301; Ελληνικά; русский'],
    ['right to left', 'مرحبا بالعالم — שלום עולם'],
    ['emoji', '👍🏽 👨‍👩‍👧‍👦 🇫🇷 ✅ done 🎉🎉🎉'],
    ['lone surrogates', 'a\ud800b\udfffc\ud83d'],
    ['control characters', '\u0000\u0001\u001f\u007f\u0085\u2028\u2029'],
  ])('counts %s as js-tiktoken does', (_name, text) => {
    expect(ours.count(text)).toBe(referenceCount(text));
  });

  it('counts random mixed-script text as js-tiktoken does', () => {
    const rand = prng(7);
    for (let i = 0; i < 300; i++) {
      const text = randomText(rand, 1 + Math.floor(rand() * 400));
      const want = referenceCount(text);
      if (ours.count(text) !== want) throw new Error(`differs on ${JSON.stringify(text)}`);
    }
  });

  it('counts this project’s own sources as js-tiktoken does', () => {
    const files = sourceFiles(join(process.cwd(), 'src')).slice(0, 150);
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      // Long letter runs are left to countTokens' estimate (js-tiktoken stalls on them).
      const text = readFileSync(file, 'utf8').replace(/[\p{L}\p{M}]{48,}/gu, ' ');
      if (ours.count(text) !== referenceCount(text)) throw new Error(`differs on ${file}`);
    }
  });

  it('merges the lowest rank first and the leftmost of equal ranks, as js-tiktoken does', () => {
    const b64 = (s: string): string => Buffer.from(s).toString('base64');
    const tokens = ['a', 'b', 'c', ' ', 'aa', 'ab', 'bc', 'aaa', 'abc', 'aab'];
    const ranks: BpeRanks = {
      pat_str: '\\S+|\\s+',
      special_tokens: {},
      bpe_ranks: `! 0 ${tokens.map(b64).join(' ')}`,
    };
    const small = new BpeCounter(ranks);
    const smallReference = new Tiktoken(ranks);
    const texts = ['aaaa', 'aaaaa', 'abcabc', 'aabc', 'aaab', 'cba', 'abab aab bcbc', 'x', 'axb'];
    for (const text of texts) {
      // `x` is not in this table: js-tiktoken counts it alone, and drops it from a longer piece.
      const want = smallReference.encode(text, [], []).length;
      expect({ text, count: small.count(text) }).toEqual({ text, count: want });
    }
  });

  it('gives the later rank to a token listed twice, and reads several lines', () => {
    const b64 = (s: string): string => Buffer.from(s).toString('base64');
    const ranks: BpeRanks = {
      pat_str: '\\S+|\\s+',
      special_tokens: {},
      bpe_ranks: `! 0 ${b64('a')} ${b64('b')} ${b64('ab')}\n! 10 ${b64('ab')} ${b64('ba')}\n`,
    };
    const small = new BpeCounter(ranks);
    expect(small.rankOf(Buffer.from('ab'))).toBe(10);
    expect(small.rankOf(Buffer.from('ba'))).toBe(11);
    expect(small.size).toBe(4);
  });

  it('refuses a rank table that is not base64', () => {
    expect(
      () => new BpeCounter({ pat_str: '\\S+', special_tokens: {}, bpe_ranks: '! 0 YQ== **' }),
    ).toThrow(/invalid base64/);
  });
});

describe('countTokens', () => {
  it('is the BPE count of the text, long letter runs estimated', () => {
    const text = `intro ${'x'.repeat(100)} outro <|endoftext|>`;
    expect(countTokens(text)).toBe(referenceCount(text.replace('x'.repeat(100), ' ')) + 50);
  });
});
