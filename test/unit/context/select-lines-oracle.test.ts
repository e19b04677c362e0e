/**
 * `relevantLines`, `selectLines` and `lazyCosts` were rewritten to do no per-line work the answer
 * does not need (term counts from the query's needle scan, line costs asked only for the lines
 * reached). They must give exactly what the straightforward versions gave: those are kept here,
 * written plainly, as the oracle, and both are run on this repository's own sources and on
 * seeded random cases.
 */
import { createRng, type Rng } from '../../../bench/patch/prng.js';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { extractIssueRefs } from '../../../src/context/extract-issue-refs.js';
import {
  lazyCosts,
  relevantLines,
  selectLines,
  type LineCost,
} from '../../../src/context/select-lines.js';
import { splitWords, termQuery } from '../../../src/context/split-words.js';

// ---------------------------------------------------------------------------------------------
// The oracle: the previous implementations, unchanged.

function oldRelevantLines(
  lines: readonly string[],
  focusLines: readonly number[],
  terms: ReadonlySet<string>,
  identifiers: readonly string[],
  max = 6,
): number[] {
  const anchors = focusLines.map((l) => l - 1).filter((i) => i >= 0 && i < lines.length);
  const scored: { index: number; score: number }[] = [];
  lines.forEach((line, index) => {
    if (line.length > 400) return;
    let score = identifiers.filter((id) => line.includes(id)).length * 3;
    for (const word of new Set(splitWords(line))) if (terms.has(word)) score += 1;
    if (score >= 2) scored.push({ index, score });
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  for (const { index } of scored) {
    if (anchors.length >= max) break;
    if (!anchors.some((a) => Math.abs(a - index) <= 3)) anchors.push(index);
  }
  return anchors.sort((a, b) => a - b);
}

function oldSelectLines(
  lineTokens: readonly number[],
  anchors: readonly number[],
  cap: number,
): boolean[] {
  const n = lineTokens.length;
  const seeds = anchors.length > 0 ? anchors : [0];
  const distance = Array.from({ length: n }, (_, i) =>
    Math.min(...seeds.map((a) => (i >= a ? i - a : (a - i) * 1.5))),
  );
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => (distance[a] ?? 0) - (distance[b] ?? 0) || a - b,
  );
  const selected = new Array<boolean>(n).fill(false);
  let used = 0;
  for (const i of order) {
    const cost = lineTokens[i] ?? 0;
    if (used + cost > cap) break;
    selected[i] = true;
    used += cost;
  }
  return selected;
}

// ---------------------------------------------------------------------------------------------
// Seeded randomness (`createRng`, mulberry32): the same cases on every run.

const rng = createRng;

// ---------------------------------------------------------------------------------------------
// Issue-like texts: a stack trace, plurals, joined names, digits and `$`.

const ISSUES = [
  [
    "TypeError: Cannot read properties of undefined (reading 'head_sha')",
    '    at buildCodeContext (src/context/build-code-context.ts:171:31)',
    '    at rankFiles (src/context/rank-files.ts:88:12)',
    '    at selectLines (src/context/select-lines.ts:120:5)',
    'The `relevantLines` call returns no anchors when parse_config_file finds no focus_lines,',
    'and `countTerms` gives a TermQuery with MAX_ITEMS needles.',
  ].join('\n'),
  'Refunds are applied twice to entries with several categories: the queries return duplicated ' +
    'statuses, `listEntries()` repeats policies and the indexes of the identifiers are wrong.',
  'isNot and is_not behave differently from `IsNotIn` / is_not_in; hasOwn, canBe and `doIt()` ' +
    'also break, and so does `isArray` when NOT_FOUND is thrown.',
  '2fa login fails: `$refund` and $scope are lost in oauth2Token, utf8Decode and sha256 with ' +
    'x509 certs; see `$.ajax`, jQuery$ and base64url. Error: `config2file` expected 3 args.',
];

// ---------------------------------------------------------------------------------------------
// Generated lines: identifiers inside, around, repeated in and joined to other identifiers.

const WORDS = [
  'parseConfigFile',
  'parse_config_file',
  'PARSE_CONFIG_FILE',
  'parse',
  'config',
  'Config',
  'parseconfigfile',
  'entries',
  'Entries',
  'listEntries',
  'entry',
  'entrys',
  'refunds',
  'refund',
  '$refund',
  'refund$',
  'isNot',
  'is_not',
  'IS_NOT',
  'IsNot',
  'is__not',
  'is$not',
  'isNot_in',
  'is_notIn',
  'do$It',
  'isnot',
  'isNotIn',
  'is_not_in',
  '9is_not',
  'doIt',
  'do_it',
  '2fa',
  'x2fa',
  '2factor',
  'fa2',
  'oauth2Token',
  '$scope',
  '$.ajax',
  'jQuery$',
  'config2file',
  'Über',
  'ünïcode',
  'focusLines',
  'focus_lines',
  'relevantLines',
  'selectLines',
  'select',
  'lines',
  'termQuery',
  'the',
  'and',
  'not',
  'x',
  '_',
  '$',
  '42',
  'a'.repeat(61),
  `parse${'X'.repeat(56)}`,
];
/**
 * A joined name whose parts are all stopwords (`isNot`, `doIt`, `isNotIn`), written in code with
 * `$`, `__` or mixed case between its parts: the form this test found missing from the needle
 * scan (fixed in `termQuery`).
 */
const JOINED_STOPWORDS: readonly (readonly [text: string, line: string])[] = [
  ['isNot ab', 'is$not ab'],
  ['isNot ab', 'is__not ab'],
  ['isNotIn ab', 'isNot_in ab'],
  ['doIt ab', 'do$It ab'],
  ['isNotIn ab', 'is_notIn ab'],
  ['isNot ab', 'IS__NOT ab'],
  ['isNot ab', 'is2not ab'],
];

const SEPARATORS = [' ', ' ', ' ', '.', '(', ')', ', ', ' = ', '\t', '-', '/', '"', '`', '\r'];
const IDENTIFIER_POOL = [
  'parse',
  'parseConfig',
  'parseConfigFile',
  'Config',
  'refund',
  'refunds',
  '$refund',
  'is_not',
  'isNot',
  'entries',
  'listEntries',
  'lines',
  'Lines',
  'focusLines',
  'x',
  'ab',
  'aa',
  'a',
  '',
];

function randomLine(r: Rng): string {
  const kind = r.int(0, 19);
  if (kind === 0) return '';
  if (kind === 1) return ' '.repeat(r.int(1, 4));
  const words = r.int(1, kind === 2 ? 120 : 12);
  let line = '';
  for (let w = 0; w < words; w++) line += (w > 0 ? r.pick(SEPARATORS) : '') + r.pick(WORDS);
  if (kind === 3) line += ` ${r.pick(WORDS)}`.repeat(2); // the same word twice more
  if (kind === 4) {
    // Lengths around the 400-character limit.
    const target = r.int(398, 402);
    line = (line + ' refunds parseConfigFile is_not'.repeat(20)).slice(0, target);
  }
  return line;
}

function randomLines(r: Rng): string[] {
  const n = r.pick([0, 1, 2, r.int(3, 12), r.int(3, 60), r.int(60, 150)]);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    // Repeat an earlier line now and then: ties between equal scores.
    lines.push(i > 0 && r.chance(0.1) ? lines[r.int(0, i - 1)]! : randomLine(r));
  }
  return lines;
}

function randomIdentifiers(r: Rng): string[] {
  if (r.chance(0.2)) return [];
  const ids: string[] = [];
  const count = r.int(1, 6);
  for (let k = 0; k < count; k++) {
    const id = r.pick(IDENTIFIER_POOL);
    if (id === '' && !r.chance(0.2)) continue; // the empty name, now and then
    ids.push(id);
    if (r.chance(0.1)) ids.push(id); // the same name twice
  }
  return ids;
}

function randomFocus(r: Rng, n: number): number[] {
  const count = r.pick([0, 0, 1, 2, 4]);
  const focus: number[] = [];
  for (let k = 0; k < count; k++) focus.push(r.int(-1, n + 2));
  if (focus.length > 0 && r.chance(0.2)) focus.push(focus[0]!);
  return focus;
}

const ISSUE_TEXTS = [
  ...ISSUES,
  'entries refunds',
  'parseConfigFile',
  'is_not',
  'isNotIn',
  '$refund 2fa x2fa',
  'focus lines selectLines',
  'the and not', // stopwords only: no terms
  '',
];

/** The first difference between the two versions on random cases, as a readable case. */
interface Mismatch {
  lines: string[];
  focus: number[];
  text: string;
  identifiers: string[];
  max: number;
  oldResult: number[];
  newResult: number[];
}

describe('relevantLines gives what the previous implementation gave', () => {
  it("on every .ts file of this repository's src/, against several issue texts", async () => {
    const root = join(process.cwd(), 'src');
    const names = (await readdir(root, { recursive: true })).filter((f) => f.endsWith('.ts'));
    const files = await Promise.all(
      names.map(async (f) => ({ path: f, content: await readFile(join(root, f), 'utf8') })),
    );
    expect(files.length).toBeGreaterThan(100);
    const queries = ISSUES.map((text) => ({
      text,
      query: termQuery(text),
      terms: new Set(splitWords(text)),
      identifiers: extractIssueRefs(text).identifiers,
    }));
    // The texts must give identifiers and terms, or the comparison would be on scores of 0.
    for (const q of queries) {
      expect(q.identifiers.length).toBeGreaterThan(0);
      expect([...q.query.keep].sort()).toEqual([...q.terms].sort());
    }
    const r = rng(0x5e1ec7);
    let compared = 0;
    let termAnchors = 0;
    files.forEach((file, fileIndex) => {
      const lines = file.content.replace(/\n$/, '').split('\n');
      queries.forEach((q, queryIndex) => {
        // Each file and each text both ways, across the other: terms alone (as build-code-context
        // calls it, with the default max), and after focus lines (a trace's, some outside the file).
        const focus = [r.int(0, lines.length + 3), 171, lines.length + 1];
        for (const [f, max] of (fileIndex + queryIndex) % 2 === 0
          ? ([[[], 6]] as const)
          : ([[focus, r.int(1, 8)]] as const)) {
          const expected = oldRelevantLines(lines, f, q.terms, q.identifiers, max);
          const actual = relevantLines(lines, f, q.query, q.identifiers, max);
          if (actual.join() !== expected.join())
            expect({ file: file.path, text: q.text, focus: f, max, actual }).toEqual({
              file: file.path,
              text: q.text,
              focus: f,
              max,
              actual: expected,
            });
          compared++;
          if (f.length === 0) termAnchors += expected.length;
        }
      });
    });
    expect(compared).toBe(files.length * ISSUES.length);
    expect(termAnchors).toBeGreaterThan(files.length); // most files have term-rich lines
  });

  it('on seeded random lines: long, empty, repeated, nested and joined names, max 1..8', () => {
    const r = rng(20240611);
    const queries = ISSUE_TEXTS.map((text) => ({
      text,
      query: termQuery(text),
      terms: new Set(splitWords(text)),
    }));
    const mismatches: Mismatch[] = [];
    let cases = 0;
    let nonEmpty = 0;
    for (let c = 0; c < 1500; c++) {
      const lines = randomLines(r);
      const q = r.pick(queries);
      const identifiers = randomIdentifiers(r);
      const focus = randomFocus(r, lines.length);
      const max = r.int(1, 8);
      const expected = oldRelevantLines(lines, focus, q.terms, identifiers, max);
      const actual = relevantLines(lines, focus, q.query, identifiers, max);
      cases++;
      if (expected.length > 0) nonEmpty++;
      if (actual.join() !== expected.join())
        mismatches.push({
          lines,
          focus,
          text: q.text,
          identifiers,
          max,
          oldResult: expected,
          newResult: actual,
        });
    }
    // The smallest case first: the one to read when this fails.
    mismatches.sort((a, b) => a.lines.join('\n').length - b.lines.join('\n').length);
    expect(mismatches.slice(0, 1)).toEqual([]);
    expect(cases).toBe(1500);
    expect(nonEmpty).toBeGreaterThan(600);
  });

  it('on hand-made lines: a name twice on a line, names inside names, the 400-character limit', () => {
    const lines = [
      'parse(parse(x))', // `parse` twice: counted once
      'parseConfigFile(parseConfig)', // `parse`, `parseConfig`, `parseConfigFile`
      '',
      'Config',
      'isNot(is_not) IS_NOT',
      'x'.repeat(10),
      'refunds entries $refund',
      'parseConfig\rrefund',
      ...['', '', '', ''],
      'parseConfigFile refunds '.padEnd(400, '.'), // at the limit: scored
      ...['', '', '', ''],
      'parseConfigFile refunds '.padEnd(401, '.'), // over the limit: never scored
    ];
    const actual: string[] = [];
    const expected: string[] = [];
    for (const text of ISSUE_TEXTS) {
      const query = termQuery(text);
      const terms = new Set(splitWords(text));
      for (const identifiers of [
        [],
        ['parse', 'parseConfig', 'parseConfigFile'],
        ['parse', 'parse'],
        ['a'],
        [''],
        ['xx', 'x'],
        ['g\nr'],
      ])
        for (let max = 1; max <= 8; max++)
          for (const focus of [[], [1], [0, 11, 5, 5]]) {
            const setup = JSON.stringify({ text, identifiers, max, focus });
            actual.push(
              `${setup} → ${relevantLines(lines, focus, query, identifiers, max).join()}`,
            );
            expected.push(
              `${setup} → ${oldRelevantLines(lines, focus, terms, identifiers, max).join()}`,
            );
          }
    }
    expect(actual).toEqual(expected);
    expect(expected.filter((e) => !e.endsWith('→ ')).length).toBeGreaterThan(1000);
  });

  for (const [text, line] of JOINED_STOPWORDS)
    it(`finds ${JSON.stringify(line)} for the issue ${JSON.stringify(text)} as the old split did`, () => {
      const old = oldRelevantLines([line], [], new Set(splitWords(text)), []);
      if (!line.includes('2')) expect(old).toEqual([0]); // two terms make it an anchor
      expect(relevantLines([line], [], termQuery(text), [])).toEqual(old);
    });
});

// ---------------------------------------------------------------------------------------------

function randomAnchors(r: Rng, n: number): number[] {
  const at = (): number => r.int(0, Math.max(0, n - 1));
  switch (r.int(0, 8)) {
    case 0:
      return [];
    case 1:
      return [at()];
    case 2: {
      const a = Array.from({ length: r.int(2, 8) }, at);
      return r.chance(0.5) ? a.sort((x, y) => x - y) : a; // unsorted too
    }
    case 3: {
      const a = at();
      return [a, a, at(), a]; // duplicated
    }
    case 4: {
      const a = r.int(0, Math.max(0, n - 3));
      return [a, a + 1, a + 2].filter((x) => x < Math.max(n, 1)); // adjacent
    }
    case 5:
      return [0];
    case 6:
      return [Math.max(0, n - 1)];
    case 7:
      return [0, Math.max(0, n - 1)];
    default:
      return [at(), at(), Math.max(0, n - 1), 0].sort((x, y) => x - y);
  }
}

/** The costs, and the line indexes read from them, in the order read. */
function recordingCosts(costs: readonly number[]): { array: number[]; reads: number[] } {
  const reads: number[] = [];
  const array = new Proxy([...costs], {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads.push(Number(key));
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { array, reads };
}

describe('selectLines gives what the previous implementation gave', () => {
  it('on seeded random cases, reading the same line costs in the same order', () => {
    const r = rng(0xc0ffee);
    let cases = 0;
    let partial = 0;
    for (let c = 0; c < 1200; c++) {
      const n = c < 20 ? c : c < 40 ? 300 - (c - 20) : r.int(0, 300);
      const costs = Array.from({ length: n }, () => r.int(0, 20));
      const anchors = randomAnchors(r, n);
      const cap = r.pick([0, 1, r.int(0, 40), r.int(0, 500), r.int(0, 500), 500]);
      const old = recordingCosts(costs);
      const expected = oldSelectLines(old.array, anchors, cap);
      const asked: number[] = [];
      const cost: LineCost = (i) => {
        asked.push(i);
        return costs[i]!;
      };
      const actual = selectLines(n, cost, anchors, cap);
      const setup = { n, anchors, cap, costs: costs.join(' ') };
      if (actual.join() !== expected.join() || asked.join() !== old.reads.join())
        expect({ ...setup, actual, asked }).toEqual({
          ...setup,
          actual: expected,
          asked: old.reads,
        });
      cases++;
      const shown = expected.filter(Boolean).length;
      if (shown > 0 && shown < n) partial++;
    }
    expect(cases).toBe(1200);
    expect(partial).toBeGreaterThan(500); // most cases stop at the cap, not at the file's end
  });

  it('on anchors past either end of the file', () => {
    const r = rng(7);
    for (let c = 0; c < 300; c++) {
      const n = r.int(0, 40);
      const costs = Array.from({ length: n }, () => r.int(0, 5));
      const anchors = [r.int(-5, -1), r.int(n, n + 5), ...(r.chance(0.5) ? [r.int(0, n)] : [])];
      const cap = r.int(0, 100);
      expect({ n, anchors, cap, selected: selectLines(n, (i) => costs[i]!, anchors, cap) }).toEqual(
        { n, anchors, cap, selected: oldSelectLines(costs, anchors, cap) },
      );
    }
  });

  it('costs only the lines it reaches: a 100,000-line file with a small cap', () => {
    const n = 100_000;
    const lineCost = (i: number): number => 1 + (i % 7);
    for (const anchors of [[], [0], [50_000], [n - 1], [10, 50_000, n - 1], [7, 7, 8]]) {
      const asked: number[] = [];
      const selected = selectLines(
        n,
        (i) => {
          asked.push(i);
          return lineCost(i);
        },
        anchors,
        300,
      );
      expect(asked.length).toBeLessThan(200);
      expect(new Set(asked).size).toBe(asked.length); // no line twice
      // The lines asked are the lines shown, and the one that went over the cap.
      const shown = selected.flatMap((on, i) => (on ? [i] : []));
      expect(shown.length).toBeGreaterThan(40);
      expect([...asked].sort((a, b) => a - b)).toEqual(
        [...shown, asked[asked.length - 1]!].sort((a, b) => a - b),
      );
    }
  });
});

describe('lazyCosts', () => {
  it('computes each line at most once, whatever the order and repetition of the asks', () => {
    const r = rng(99);
    for (let c = 0; c < 100; c++) {
      const n = r.int(0, 200);
      const values = Array.from({ length: n }, () => r.int(0, 20)); // 0 is a cost too
      const computed = new Array<number>(n).fill(0);
      const cost = lazyCosts(n, (i) => {
        computed[i]!++;
        return values[i]!;
      });
      const asks = Array.from({ length: n * 3 }, () => r.int(0, n - 1));
      expect(asks.map(cost).join()).toBe(asks.map((i) => values[i]).join());
      expect(computed.filter((times) => times > 1)).toEqual([]);
      // As build-code-context uses it: every line summed, then a selection from the same costs.
      expect(values.map((_, i) => cost(i))).toEqual(values);
      selectLines(n, cost, randomAnchors(r, n), r.int(0, 500));
      expect(computed).toEqual(new Array<number>(n).fill(1));
    }
  });

  it('through selectLines, computes only the lines selectLines reaches, once each', () => {
    const n = 100_000;
    const computed = new Map<number, number>();
    const cost = lazyCosts(n, (i) => {
      computed.set(i, (computed.get(i) ?? 0) + 1);
      return 3;
    });
    const first = selectLines(n, cost, [500, 90_000], 150);
    const second = selectLines(n, cost, [500, 90_000], 150);
    expect(second).toEqual(first);
    expect(first.filter(Boolean).length).toBe(50);
    expect(computed.size).toBe(51); // 50 lines of 3 tokens, and the one over the cap
    expect([...computed.values()].every((times) => times === 1)).toBe(true);
  });
});
