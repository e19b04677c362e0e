import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as D from './damage.js';
import { cloneDiff, formatGitDiff, parseGitDiff } from './diff-model.js';
import type { DiffFile } from './diff-model.js';
import { makeEdit, withTrailingWhitespace, withoutFinalNewline } from './variants.js';
import type { Tree } from './variants.js';
import type { Rng } from './prng.js';
import { resetTree, run, writeTree } from './repo.js';
import type { SourceFile } from './sources.js';

/** A repository state: the files every tool starts from. */
export interface Scenario {
  id: string;
  dir: string;
  original: Map<string, string>;
}

/** One damaged diff and the tree its author meant (undefined = the file must not exist). */
export interface BenchCase {
  scenario: Scenario;
  klass: string;
  diff: string;
  intended: Map<string, string | undefined>;
}

export const CLASSES = [
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
  const r = await run('git', [...GIT, ...args], dir);
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
): Promise<{ scenarios: Scenario[]; cases: BenchCase[] } | undefined> {
  const edit = makeEdit(rng, pool, idx);
  if (!edit) return undefined;
  const base = await makeScenario(`${idx}`, edit.original);
  const { u3, u1 } = await goldDiffs(base, edit.intended, true);
  const gold = parseGitDiff(u3);
  const plain = render(gold, rng, []);
  const cases: BenchCase[] = [
    { scenario: base, klass: 'clean', diff: u3, intended: edit.intended },
  ];
  const add = (klass: string, diff: string, always = false): void => {
    if (always || diff !== plain)
      cases.push({ scenario: base, klass, diff, intended: edit.intended });
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
  cases.push({ scenario: crlf, klass: 'lf-diff-crlf-file', diff: plain, intended: crlfIntended });

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
    });
  }
  return { scenarios, cases };
}
