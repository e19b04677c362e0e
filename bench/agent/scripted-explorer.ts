/**
 * The scripted tool-using model of `bench:agent`: it behaves as the issue allows a model that
 * knows nothing but the issue — it looks up the identifiers, names and messages the issue holds
 * (`find_definition`, `search`), reads the files the tools answer with (the first listed first, a few after each lookup),
 * and once it has read a file the upstream fix changes it answers (`finish`). It never sees the
 * gold files except to know it may stop. One call per turn, so calls and turns are the same.
 */
import { extractIssueRefs } from '../../src/context/extract-issue-refs.js';
import { isDocPath, isTestPath } from '../context/gold.js';

export interface ExplorerCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** `path:line: text` lines of a tool's answer. */
const HIT = /^([^\s:<>][^:\n]*?):(\d+):/gm;

/**
 * The lookups the issue allows, most specific first: named paths, the title's names, quoted
 * messages, the title's words, dotted names, the prose's identifiers (definitions, then the first
 * ones' uses), and last the names only the issue's code blocks hold (a reproducer's setup).
 */
export function lookups(issue: string): ExplorerCall[] {
  const refs = extractIssueRefs(issue);
  const out: ExplorerCall[] = [];
  const seen = new Set<string>();
  const add = (name: string, args: Record<string, unknown>): void => {
    const key = JSON.stringify([name, args]);
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ name, arguments: args });
  };
  const codeOnly = new Set(refs.codeOnlyNames);
  const prose = refs.identifiers.filter((n) => !codeOnly.has(n));
  // Only what reads as a file of the repository: a relative path with an extension, no `@`.
  const files = refs.paths
    .map((p) => p.path)
    .filter(
      (p) =>
        !p.startsWith('/') &&
        /^[\w./-]+\.(?:[cm]?[jt]sx?|py|go|rb|rs|java|json|ya?ml|toml|cfg|ini|sh|md|html|css)$/.test(
          p,
        ) &&
        !/\/n/.test(p),
    );
  for (const path of files.slice(0, 3)) add('read_file', { path });
  // First, where the title's words occur at all (any of them, in any case): the tools list the
  // files most relevant to the issue first.
  const words = refs.titleWords.filter((w) => /^\w{3,}$/.test(w));
  if (words.length > 1)
    add('search', { pattern: words.join('|'), regex: true, case_sensitive: false });
  for (const name of refs.titleNames) add('find_definition', { symbol: name });
  for (const name of refs.names) add('find_definition', { symbol: name });
  // A message, not a command line or a path the reporter's machine printed.
  for (const m of refs.messages)
    if (m.length >= 8 && !/(^|\s)\/\w|\\/.test(m)) add('search', { pattern: m.slice(0, 60) });
  // The title says what the issue is about: its words before the body's names.
  for (const w of refs.titleWords) if (w.length >= 3) add('search', { pattern: w });
  for (const d of refs.dotted) add('find_definition', { symbol: d });
  for (const name of prose) add('find_definition', { symbol: name });
  for (const name of prose.slice(0, 2)) add('find_references', { symbol: name });
  for (const name of refs.codeOnlyNames) add('find_definition', { symbol: name });
  for (const o of refs.options) add('search', { pattern: o });
  return out;
}

/** The files a lookup's answer names, in its order: its `files:` list, then its hits. */
export function filesIn(answer: string): string[] {
  const named = /^files: (.*)$/m.exec(answer)?.[1]?.split(', ') ?? [];
  return [
    ...new Set([
      ...named.map((f) => f.replace(/ \(\d+\)$/, '')),
      ...[...answer.matchAll(HIT)].map((m) => m[1]!),
    ]),
  ];
}

export interface Explorer {
  /** The next call, given the answer to the last one (undefined at the start). */
  next(lastAnswer: string | undefined): ExplorerCall;
  /** Calls made so far, and the one at which a gold file was read (undefined: not yet). */
  calls(): number;
  reachedAt(): number | undefined;
}

export function createExplorer(
  issue: string,
  alreadySeen: readonly string[],
  gold: readonly string[],
  maxCalls: number,
  readsPerLookup = 2,
  /** The files the opening message suggests next, in its order (a listing like a search's). */
  suggested: readonly string[] = [],
  /**
   * `consensus`: read the unread files the answers so far name most (weighted by place and kind);
   * `follow`: read the first unread files of the last answer, as a model that trusts each answer.
   */
  policy: 'consensus' | 'follow' = 'consensus',
): Explorer {
  const plan = lookups(issue);
  const read = new Set(alreadySeen);
  const score = new Map<string, number>();
  let made = 0;
  // A gold file in the view is read already: the answer comes at once.
  let reached: number | undefined = alreadySeen.some((p) => gold.includes(p)) ? 0 : undefined;
  // Reads still to make of the best files before the next lookup (first: the suggested ones).
  let reads = suggested.length > 0 ? readsPerLookup : 0;
  let pending: ExplorerCall | undefined;
  // The files a listing names, in its order: a model reads the first ones first, and the code
  // before the tests that use it; prose (a README, a changelog) says what the code does, not
  // where to fix it.
  const credit = (paths: readonly string[], weight: number): void =>
    paths.forEach((path, i) => {
      const factor = isDocPath(path) ? 1 / 10 : isTestPath(path) ? 1 / 4 : 1;
      score.set(path, (score.get(path) ?? 0) + (weight / (1 + i)) * factor);
    });
  credit(suggested, 2);
  let lastFiles: readonly string[] = suggested;
  const bestUnread = (): string | undefined =>
    policy === 'follow'
      ? lastFiles.find((p) => !read.has(p) && !isDocPath(p))
      : [...score]
          .filter(([p]) => !read.has(p))
          .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
  const call = (c: ExplorerCall): ExplorerCall => {
    made += 1;
    pending = c;
    return c;
  };
  return {
    calls: () => made,
    reachedAt: () => reached,
    next(lastAnswer) {
      if (
        pending?.name === 'read_file' &&
        lastAnswer !== undefined &&
        !/refused|not a file|not there/.test(lastAnswer.split('\n')[0] ?? '')
      ) {
        const path = String(pending.arguments.path);
        read.add(path);
        if (reached === undefined && gold.includes(path)) reached = made;
      }
      if (lastAnswer !== undefined && pending?.name !== 'read_file') {
        const weight = { find_definition: 3, find_references: 2 }[pending?.name ?? ''] ?? 1;
        lastFiles = filesIn(lastAnswer);
        credit(lastFiles, weight);
      }
      if (reached !== undefined || made >= maxCalls)
        return {
          name: 'finish',
          arguments: { summary: reached ? 'read the file the fix changes' : 'gave up' },
        };
      const candidate = bestUnread();
      // Read the best candidates after each lookup; look up again when none is left.
      if (candidate && reads > 0) {
        reads -= 1;
        return call({ name: 'read_file', arguments: { path: candidate } });
      }
      const lookup = plan.shift();
      if (lookup) {
        reads = lookup.name === 'read_file' ? 0 : readsPerLookup;
        return call(lookup);
      }
      if (candidate) return call({ name: 'read_file', arguments: { path: candidate } });
      return { name: 'finish', arguments: { summary: 'nothing left to look up' } };
    },
  };
}
