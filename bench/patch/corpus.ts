import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import * as D from './damage.js';
import { cloneDiff, formatGitDiff, parseGitDiff } from './diff-model.js';
import type { DiffFile } from './diff-model.js';
import { editNearRepeated, insertLookalike, insertStatement } from './edits.js';
import { editOneFile, makeEdit, withTrailingWhitespace, withoutFinalNewline } from './variants.js';
import type { Tree } from './variants.js';
import { exclusive } from './gate.js';
import type { EditFormat } from '../../src/config/repo-config.js';
import { keptComments } from './kept-comments.js';
import { refusalCases } from './refusal-cases.js';
import { wholeFileCases } from './whole-file-answers.js';
import type { Rng } from './prng.js';
import { resetTree, run, writeTree } from './repo.js';
import type { SourceFile } from './sources.js';

/** A repository state: the files every tool starts from. */
export interface Scenario {
  id: string;
  dir: string;
  original: Map<string, string>;
}

/**
 * One damaged diff and the tree its author meant (undefined = the file must not exist).
 * `already-applied`: the scenario already holds the change, so intended is the starting tree and
 * refusing is as right as a no-op.
 */
export interface BenchCase {
  scenario: Scenario;
  klass: string;
  diff: string;
  intended: Map<string, string | undefined>;
  expect: 'apply' | 'already-applied';
  /** one-line-context-repeated: some hunk's old side occurs more than once in its file. */
  ambiguous?: boolean;
  /** A cut-off or lazy answer: its author's tree cannot be written from it, so refusing is right. */
  refusalOk?: boolean;
  /** An answer in another edit format than udiff: only ours reads it. */
  format?: EditFormat;
}

export const BASE_CLASSES = [
  'clean',
  'wrong-line-numbers',
  'wrong-line-counts',
  'bare-headers',
  'no-git-headers',
  'no-prefixes',
  'crlf-diff',
  'lf-diff-crlf-file',
  'trailing-ws-dropped',
  'tab-space-drift',
  'blank-context-no-space',
  'out-of-order',
  'one-line-context',
  'misquoted-context',
  'no-eof-marker',
  'combined',
] as const;

/** The classes added later, by family (a SUMMARY key each); drawn after all of the above. */
export const NEW_FAMILIES = {
  indent_shift: [
    'indent-shift+2',
    'indent-shift-2',
    'indent-shift+4',
    'indent-shift-4',
    'indent-shift+8',
    'indent-shift-8',
    'indent-shift+tab',
    'indent-shift-tab',
  ],
  headers: ['header-dots', 'header-bare-at', 'header-function'],
  one_line_repeated: ['one-line-context-repeated', 'one-line-context-repeated+wrong-line-numbers'],
  resent: ['resent-insertion', 'resent-insertion+bare-headers'],
  combined_new: ['combined-new'],
} as const;

/** Cut-off and lazy answers (issue #33): a refusal counts as right (a SUMMARY key each). */
export const REFUSAL_FAMILIES = {
  cut: [
    'cut-after-removed',
    'cut-after-removed+bare-headers',
    'cut-mid-added',
    'cut-mid-added+bare-headers',
    'cut-mid-hunk',
    'cut-mid-hunk+bare-headers',
    'cut-trailing-context',
  ],
  lazy: ['lazy-elision', 'lazy-elision+bare-headers'],
  whole_file: ['fenced-cut', 'json-cut', 'fenced-lazy'],
} as const;

/** Real comments that look like placeholders, in a correct rewrite: must apply exactly. */
export const KEPT_CLASSES = ['ellipsis-comments-kept', 'fenced-kept'] as const;

/** The classes before issue #33: their rows must stay as they were. */
export const EARLIER_CLASSES: readonly string[] = [
  ...BASE_CLASSES,
  ...Object.values(NEW_FAMILIES).flat(),
];

export const CLASSES: readonly string[] = [
  ...EARLIER_CLASSES,
  ...Object.values(REFUSAL_FAMILIES).flat(),
  ...KEPT_CLASSES,
];

const GIT = [
  '-c',
  'user.name=bench',
  '-c',
  'user.email=bench@example.invalid',
  '-c',
  'core.autocrlf=false',
  '-c',
  'diff.noprefix=false',
];

async function git(dir: string, ...args: string[]): Promise<string> {
  const r = await exclusive(() => run('git', [...GIT, ...args], dir));
  if (r.code !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** A fresh temp git repository holding `original` (untracked: the appliers only need a work tree). */
async function makeScenario(id: string, original: Map<string, string>): Promise<Scenario> {
  const dir = await mkdtemp(join(tmpdir(), `bench-patch-${id}-`));
  await writeTree(dir, original);
  await git(dir, 'init', '-q', '--template=');
  return { id, dir, original };
}

/** The gold diff(s) git itself writes from original to intended; then the tree is put back. */
async function goldDiffs(
  s: Scenario,
  intended: Tree,
  oneLine: boolean,
): Promise<{ u3: string; u1: string }> {
  await git(s.dir, 'add', '-A');
  await writeTree(s.dir, intended);
  const created = [...intended].flatMap(([p, c]) =>
    c !== undefined && !s.original.has(p) ? [p] : [],
  );
  // Only the new files: `git add -N .` would also stage the deletions and hide them from the diff.
  if (created.length > 0) await git(s.dir, 'add', '-N', '--', ...created);
  const u3 = await git(s.dir, 'diff', '--no-color', '--no-ext-diff');
  const u1 = oneLine ? await git(s.dir, 'diff', '--no-color', '--no-ext-diff', '-U1') : '';
  await rm(join(s.dir, '.git', 'index'));
  await resetTree(s.dir, s.original);
  return { u3, u1 };
}

const CRLF = (s: string | undefined): string | undefined => s?.replace(/\n/g, '\r\n');

function render(gold: DiffFile[], rng: Rng, damages: D.Damage[], eol = '\n'): string {
  const files = cloneDiff(gold);
  D.dropHeadings(files, rng);
  for (const d of damages) d(files, rng);
  return formatGitDiff(files, eol);
}

const UNITS: [string, string][] = [
  ['2', '  '],
  ['4', '    '],
  ['8', '        '],
  ['tab', '\t'],
];

/** Whether some hunk's old side (context and removed lines) occurs more than once in its file. */
function oldSideRepeats(files: DiffFile[], original: ReadonlyMap<string, string>): boolean {
  return files.some((f) => {
    const path = f.header.find((l) => l.startsWith('--- a/'))?.slice(6);
    const lines = (original.get(path ?? '') ?? '').split('\n');
    return f.hunks.some((h) => {
      const old = h.lines.filter((l) => /^[ -]/.test(l)).map((l) => l.slice(1));
      let found = 0;
      for (let i = 0; i + old.length <= lines.length && found < 2; i++)
        if (old.every((l, k) => lines[i + k] === l)) found++;
      return found > 1;
    });
  });
}

const COMBINABLE: [string, D.Damage][] = [
  ['misquoted-context', D.misquotedContext],
  ['tab-space-drift', D.tabSpaceDrift],
  ['blank-context-no-space', D.blankContextNoSpace],
  ['out-of-order', D.outOfOrder],
  ['wrong-line-numbers', D.wrongLineNumbers],
  ['wrong-line-counts', D.wrongLineCounts],
  ['bare-headers', D.bareHeaders],
  ['no-git-headers', D.noGitHeaders],
  ['no-prefixes', D.noPrefixes],
];

/** Every damage class for one edit: scenarios (temp repos) and their cases. */
export async function buildCases(
  rng: Rng,
  pool: SourceFile[],
  idx: number,
  keptSource?: SourceFile,
): Promise<{ scenarios: Scenario[]; cases: BenchCase[] } | undefined> {
  const edit = makeEdit(rng, pool, idx);
  if (!edit) return undefined;
  const base = await makeScenario(`${idx}`, edit.original);
  const { u3, u1 } = await goldDiffs(base, edit.intended, true);
  const gold = parseGitDiff(u3);
  const plain = render(gold, rng, []);
  const cases: BenchCase[] = [
    { scenario: base, klass: 'clean', diff: u3, intended: edit.intended, expect: 'apply' },
  ];
  const add = (klass: string, diff: string, always = false): void => {
    if (always || diff !== plain)
      cases.push({ scenario: base, klass, diff, intended: edit.intended, expect: 'apply' });
  };
  add('wrong-line-numbers', render(gold, rng, [D.wrongLineNumbers]));
  add('wrong-line-counts', render(gold, rng, [D.wrongLineCounts]));
  add('bare-headers', render(gold, rng, [D.bareHeaders]));
  add('no-git-headers', render(gold, rng, [D.noGitHeaders]));
  add('no-prefixes', render(gold, rng, [D.noPrefixes]));
  add('crlf-diff', render(gold, rng, [], '\r\n'));
  add('tab-space-drift', render(gold, rng, [D.tabSpaceDrift]));
  add('blank-context-no-space', render(gold, rng, [D.blankContextNoSpace]));
  if (gold.some((f) => f.hunks.length > 1)) add('out-of-order', render(gold, rng, [D.outOfOrder]));
  add('one-line-context', render(parseGitDiff(u1), rng, []), true);
  add('misquoted-context', render(gold, rng, [D.misquotedContext]));
  const picks = rng.shuffle(COMBINABLE).slice(0, rng.int(2, 3));
  const combined = COMBINABLE.filter((c) => picks.includes(c)).map(([, d]) => d);
  add(
    'combined',
    render(parseGitDiff(rng.chance(0.3) ? u1 : u3), rng, combined, rng.chance(0.2) ? '\r\n' : '\n'),
    true,
  );

  const scenarios = [base];
  const crlfOriginal = new Map([...edit.original].map(([p, c]) => [p, CRLF(c) ?? c]));
  const crlfIntended: Tree = new Map(
    [...edit.intended].map(([p, c]) => [p, edit.original.has(p) ? CRLF(c) : c]),
  );
  const crlf = await makeScenario(`${idx}-crlf`, crlfOriginal);
  scenarios.push(crlf);
  cases.push({
    scenario: crlf,
    klass: 'lf-diff-crlf-file',
    diff: plain,
    intended: crlfIntended,
    expect: 'apply',
  });

  const tw = withTrailingWhitespace(rng, edit.original, edit.intended);
  const twScenario = await makeScenario(`${idx}-tw`, tw.original);
  const twGold = parseGitDiff((await goldDiffs(twScenario, tw.intended, false)).u3);
  const twDiff = render(twGold, rng, [D.trailingWhitespaceDropped]);
  scenarios.push(twScenario);
  if (twDiff !== render(twGold, rng, [])) {
    cases.push({
      scenario: twScenario,
      klass: 'trailing-ws-dropped',
      diff: twDiff,
      intended: tw.intended,
      expect: 'apply',
    });
  }

  const noEol = withoutFinalNewline(rng, edit.original, edit.intended);
  const noEolScenario = await makeScenario(`${idx}-noeol`, noEol.original);
  const noEolGold = parseGitDiff((await goldDiffs(noEolScenario, noEol.intended, false)).u3);
  const noEolDiff = render(noEolGold, rng, [D.noEofMarker]);
  scenarios.push(noEolScenario);
  if (noEolDiff !== render(noEolGold, rng, [])) {
    cases.push({
      scenario: noEolScenario,
      klass: 'no-eof-marker',
      diff: noEolDiff,
      intended: noEol.intended,
      expect: 'apply',
    });
  }

  // The later classes draw from the PRNG only after all of the above, which stay as they were.
  for (const [name, unit] of UNITS) {
    add(`indent-shift+${name}`, render(gold, rng, [D.indentShift(unit, 1)]));
    if (D.canUnindent(gold, unit))
      add(`indent-shift-${name}`, render(gold, rng, [D.indentShift(unit, -1)]));
  }
  add('header-dots', render(gold, rng, [D.headerDots]));
  add('header-bare-at', render(gold, rng, [D.headerBareAt]));
  const headings = D.scopeHeadings(gold, edit.original);
  add('header-function', render(gold, rng, [D.headerFunction(headings)]));

  const near = editOneFile(rng, edit.original, editNearRepeated);
  if (near) {
    const nearGold = parseGitDiff((await goldDiffs(base, near, true)).u1);
    const ambiguous = oldSideRepeats(nearGold, edit.original);
    for (const [klass, damages] of [
      ['one-line-context-repeated', []],
      ['one-line-context-repeated+wrong-line-numbers', [D.wrongLineNumbers]],
    ] as const) {
      const diff = render(nearGold, rng, [...damages]);
      cases.push({ scenario: base, klass, diff, intended: near, expect: 'apply', ambiguous });
    }
  }

  const inserted =
    editOneFile(rng, edit.original, insertLookalike) ??
    editOneFile(rng, edit.original, insertStatement);
  if (inserted) {
    const insertU3 = (await goldDiffs(base, inserted, false)).u3;
    const insertGold = parseGitDiff(insertU3);
    if (insertGold.every((f) => f.hunks.every((h) => !h.lines.some((l) => l.startsWith('-'))))) {
      const resent = await makeScenario(`${idx}-resent`, inserted);
      scenarios.push(resent);
      const bare = render(insertGold, rng, [D.bareHeaders]);
      for (const [klass, diff] of [
        ['resent-insertion', insertU3],
        ['resent-insertion+bare-headers', bare],
      ] as const)
        cases.push({
          scenario: resent,
          klass,
          diff,
          intended: inserted,
          expect: 'already-applied',
        });
    }
  }
  // Unlisted mixtures: a uniform indent shift or a header style first, then 1-2 of the older
  // damages, on the -U3 or -U1 diff (headings are taken from the diff they go on).
  const mixBase = rng.chance(0.3) ? parseGitDiff(u1) : gold;
  const shiftUnit = rng.pick(UNITS);
  const first = rng.pick([
    D.indentShift(shiftUnit[1], 1),
    ...(D.canUnindent(mixBase, shiftUnit[1]) ? [D.indentShift(shiftUnit[1], -1)] : []),
    D.headerDots,
    D.headerBareAt,
    D.headerFunction(D.scopeHeadings(mixBase, edit.original)),
  ]);
  const more = rng
    .shuffle(COMBINABLE)
    .slice(0, rng.int(1, 2))
    .map(([, d]) => d);
  add('combined-new', render(mixBase, rng, [first, ...more]), true);
  // Issue #33, drawn last: cut-off and lazy answers, and placeholder-like comments kept.
  for (const later of refusalCases(gold, edit.original, rng))
    cases.push({
      ...later,
      scenario: base,
      intended: edit.intended,
      expect: 'apply',
      refusalOk: true,
    });
  if (keptSource) {
    const keptFile = `src/m${idx}/kept-${basename(keptSource.origin)}`;
    const keptScenario = await makeScenario(`${idx}-kept`, new Map([[keptFile, keptSource.text]]));
    scenarios.push(keptScenario);
    const kept = keptComments(keptScenario.original, rng);
    if (kept)
      cases.push({
        scenario: keptScenario,
        klass: 'ellipsis-comments-kept',
        diff: kept.diff,
        intended: kept.intended,
        expect: 'apply',
      });
  }
  for (const w of wholeFileCases(edit.original, edit.intended, rng))
    cases.push({
      scenario: base,
      klass: w.klass,
      diff: w.diff,
      intended: w.intended,
      expect: 'apply',
      format: w.format,
      ...(w.refusalOk ? { refusalOk: true } : {}),
    });
  return { scenarios, cases };
}
