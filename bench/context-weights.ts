/**
 * `npm run bench:context-weights -- --json FILE`: how the ranking would change if one kind of
 * evidence weighed more or less (issue #18), read from a `bench:context --json` result (each
 * file's score by kind of evidence, `RankedFile.points`, for its first 30 files and the gold).
 * A file's score is the sum of its points; scaling a kind scales its points. Ranks are recomputed
 * among those files, ties kept in the bench's order. The import hop is taken as measured (it is
 * a share of the top files' scores, so a scaled kind moves it too): confirm a choice with the
 * bench itself.
 *
 * Prints, per kind and factor, any@1/3/5 for Python issues and for the others, then a
 * leave-one-repository-out check of choosing one kind's factor: the factor is chosen on every
 * other repository (best any@1 + any@3 / 2 + any@5) and scored on the one left out, so the
 * figure says what the choice is worth on repositories it was not chosen on. Last line:
 * `SUMMARY context-weights kind=… factor=… cv_py_any1=… cv_py_any5=… py_any1=… py_any5=…`.
 * Flags: --json FILE (required), --kind NAME (the kind for the check; default: the one whose
 * best factor helps Python issues most).
 */
import { readFileSync } from 'node:fs';
import type { EvidenceKind } from '../src/context/rank-files.js';

interface Row {
  repo: string;
  language: string;
  gold: string[];
  context: {
    points?: [string, Partial<Record<EvidenceKind, number>>][];
    why?: Record<string, { points?: Partial<Record<EvidenceKind, number>> }>;
  };
}

interface Case {
  repo: string;
  python: boolean;
  /** Per ranked file, its points by kind; `gold` marks the fix's files. */
  files: { points: Partial<Record<EvidenceKind, number>>; gold: boolean }[];
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const FACTORS = [0.5, 0.7, 1, 1.4, 2] as const;
const CHOICES = [0.5, 0.7, 0.85, 1, 1.25, 1.5, 1.75, 2, 2.5] as const;
const KS = [1, 3, 5] as const;

type Factors = Partial<Record<EvidenceKind, number>>;

function casesOf(rows: readonly Row[]): Case[] {
  return rows.map((r) => {
    const points = new Map(r.context.points ?? []);
    for (const [path, why] of Object.entries(r.context.why ?? {}))
      if (!points.has(path)) points.set(path, why.points ?? {});
    return {
      repo: r.repo,
      python: r.language === 'py',
      files: [...points].map(([path, p]) => ({ points: p, gold: r.gold.includes(path) })),
    };
  });
}

/** The best gold file's rank when each kind is scaled by its factor; undefined: not ranked. */
function rankWith(c: Case, factors: Factors): number | undefined {
  const scores = c.files.map((f) =>
    Object.entries(f.points).reduce(
      (sum, [kind, points]) => sum + (points ?? 0) * (factors[kind as EvidenceKind] ?? 1),
      0,
    ),
  );
  let best = -1;
  c.files.forEach((f, i) => {
    if (f.gold && (best < 0 || (scores[i] ?? 0) > (scores[best] ?? 0))) best = i;
  });
  if (best < 0) return undefined;
  const top = scores[best] ?? 0;
  return (
    1 +
    c.files.filter(
      (f, i) => !f.gold && ((scores[i] ?? 0) > top || ((scores[i] ?? 0) === top && i < best)),
    ).length
  );
}

function anyAt(cases: readonly Case[], factors: Factors): number[] {
  const ranks = cases.map((c) => rankWith(c, factors));
  return KS.map((k) => ranks.filter((r) => r !== undefined && r <= k).length / cases.length);
}

const objective = (cases: readonly Case[], factors: Factors): number => {
  const [a1 = 0, a3 = 0, a5 = 0] = anyAt(cases, factors);
  return a1 + a3 / 2 + a5;
};

const pct = (xs: number[]): string => xs.map((x) => (x * 100).toFixed(1).padStart(5)).join(' ');

function main(): void {
  const file = flag('json');
  if (!file) throw new Error('--json FILE (a `bench:context --json` result) is required');
  const rows = JSON.parse(readFileSync(file, 'utf8')) as Row[];
  if (!rows.some((r) => r.context.points))
    throw new Error(`${file} has no points by kind: rerun bench:context with this version`);
  const cases = casesOf(rows);
  const python = cases.filter((c) => c.python);
  const others = cases.filter((c) => !c.python);
  const kinds = [
    ...new Set(cases.flatMap((c) => c.files.flatMap((f) => Object.keys(f.points)))),
  ].sort() as EvidenceKind[];

  console.log(`${python.length} Python issues, ${others.length} others; any@1 @3 @5 in percent`);
  console.log(`${'kind × factor'.padEnd(26)} ${'python'.padEnd(17)}   others`);
  console.log(
    `${'(as measured)'.padEnd(26)} ${pct(anyAt(python, {}))}   ${pct(anyAt(others, {}))}`,
  );
  let bestKind: EvidenceKind | undefined;
  let bestGain = 0;
  for (const kind of kinds)
    for (const factor of FACTORS) {
      if (factor === 1) continue;
      const py = anyAt(python, { [kind]: factor });
      console.log(
        `${`${kind} ×${factor}`.padEnd(26)} ${pct(py)}   ${pct(anyAt(others, { [kind]: factor }))}`,
      );
      const gain = objective(python, { [kind]: factor }) - objective(python, {});
      if (gain > bestGain) [bestKind, bestGain] = [kind, gain];
    }

  const kind = (flag('kind') as EvidenceKind | undefined) ?? bestKind;
  if (!kind) {
    console.log('\nNo single factor helps the Python issues.');
    console.log('SUMMARY context-weights kind=none');
    return;
  }
  // Leave one repository out: choose the factor on the others, score it on the one left out.
  const repos = [...new Set(python.map((c) => c.repo))].sort();
  const held: Case[] = [];
  const chosenFor: { case: Case; factor: number }[] = [];
  console.log(`\nLeave one repository out, factor of ${kind} chosen on the other repositories:`);
  for (const repo of repos) {
    const train = cases.filter((c) => c.repo !== repo);
    const factor = CHOICES.reduce((a, b) =>
      objective(train, { [kind]: b }) > objective(train, { [kind]: a }) ? b : a,
    );
    console.log(`  ${repo.padEnd(40)} ×${factor}`);
    for (const c of python.filter((p) => p.repo === repo)) {
      held.push(c);
      chosenFor.push({ case: c, factor });
    }
  }
  const cv = KS.map(
    (k) =>
      chosenFor.filter(({ case: c, factor }) => {
        const r = rankWith(c, { [kind]: factor });
        return r !== undefined && r <= k;
      }).length / held.length,
  );
  const factor = CHOICES.reduce((a, b) =>
    objective(cases, { [kind]: b }) > objective(cases, { [kind]: a }) ? b : a,
  );
  const all = anyAt(python, { [kind]: factor });
  console.log(`python, as measured:            ${pct(anyAt(python, {}))}`);
  console.log(`python, held-out repositories:  ${pct(cv)}`);
  console.log(`python, ${`${kind} ×${factor} on all:`.padEnd(23)} ${pct(all)}`);
  console.log(
    `SUMMARY context-weights kind=${kind} factor=${factor} cv_py_any1=${cv[0]?.toFixed(3)} cv_py_any5=${cv[2]?.toFixed(3)} py_any1=${anyAt(python, {})[0]?.toFixed(3)} py_any5=${anyAt(python, {})[2]?.toFixed(3)}`,
  );
}

main();
