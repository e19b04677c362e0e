/**
 * `search`: a word, literal text or a regular expression over the repository's files, with an
 * optional path glob; answers `path:line: text` hits, capped. Regular expressions run on RE2
 * (`re2js`: linear time), so no pattern the model writes can stall the worker.
 */
import { minimatch } from 'minimatch';
import { RE2JS } from 're2js';
import { z } from 'zod';
import { refused, type Tool } from './tool.js';

const schema = z
  .object({
    pattern: z
      .string()
      .min(1)
      .describe('Text to find; a regular expression (RE2) when regex is true.'),
    regex: z.boolean().default(false),
    path_glob: z.string().optional().describe('Only files matching this glob, e.g. `src/**/*.ts`.'),
    case_sensitive: z.boolean().default(true),
  })
  .strict();

type Args = z.infer<typeof schema>;

/** Where a pattern matches in a text: each match's start offset. */
type Finder = (text: string) => Iterable<number>;

function* literalHits(text: string, needle: string): Iterable<number> {
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length))
    yield at;
}

/**
 * A finder over whole texts, or the reason the pattern cannot be one. Whole texts, not lines:
 * a file without the text is passed over by one native scan (14,000 files of a large project
 * are not split into lines for every search).
 */
function finderOf(args: Args): Finder | string {
  if (!args.regex) {
    if (args.case_sensitive) return (text) => literalHits(text, args.pattern);
    const re = new RegExp(args.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');
    return (text) => [...text.matchAll(re)].map((m) => m.index);
  }
  try {
    const re = RE2JS.compile(
      args.pattern,
      RE2JS.MULTILINE | (args.case_sensitive ? 0 : RE2JS.CASE_INSENSITIVE),
    );
    return function* (text) {
      const m = re.matcher(text);
      // From each match's end (one past an empty match), so the scan always moves on.
      for (let from = 0; from <= text.length && m.find(from);) {
        yield m.start();
        from = m.end() > m.start() ? m.end() : m.start() + 1;
      }
    };
  } catch (err) {
    return `not a valid regular expression (RE2 syntax): ${(err as Error).message}`;
  }
}

/** The 1-based line of each offset (in order), each line once. */
function linesOf(text: string, offsets: Iterable<number>): number[] {
  const lines: number[] = [];
  let line = 1;
  let at = 0;
  for (const offset of offsets) {
    for (let nl = text.indexOf('\n', at); nl >= 0 && nl < offset; nl = text.indexOf('\n', at)) {
      line += 1;
      at = nl + 1;
    }
    if (lines[lines.length - 1] !== line) lines.push(line);
  }
  return lines;
}

function lineText(text: string, line: number): string {
  let start = 0;
  for (let n = 1; n < line; n++) start = text.indexOf('\n', start) + 1;
  const end = text.indexOf('\n', start);
  return text.slice(start, end < 0 ? undefined : end);
}

/** Shorter patterns match paths by chance (`id`, `io`): a path must hold one of this length. */
const PATH_MATCH_MIN = 3;

/**
 * The files whose path the pattern matches too (in any case: `TF1` → `extractor/tf1.py`, `ssm` →
 * `services/ssm/provider.py`) first, each group in the workspace's order: a file named for what
 * is searched is likelier the one to read than another that mentions it.
 */
function pathMatchesFirst<F extends { path: string }>(files: F[], args: Args): F[] {
  const onPath = finderOf({ ...args, case_sensitive: false });
  if (typeof onPath === 'string' || args.pattern.length < PATH_MATCH_MIN) return files;
  const named = (f: F): boolean => onPath(f.path)[Symbol.iterator]().next().done !== true;
  const first = files.filter(named);
  if (first.length === 0) return files;
  const lead = new Set(first);
  return [...first, ...files.filter((f) => !lead.has(f))];
}

export const searchTool: Tool<Args> = {
  name: 'search',
  description:
    'Search the repository for text (or an RE2 regular expression with regex: true), ' +
    'optionally only in files matching path_glob. Answers path:line: text for each hit.',
  schema,
  async run(args, ws) {
    const find = finderOf(args);
    if (typeof find === 'string') return refused(find, `search ${args.pattern}: refused`);
    const scanned = pathMatchesFirst(
      (await ws.texts()).filter(
        (f) =>
          !args.path_glob ||
          minimatch(f.path, args.path_glob, {
            dot: true,
            matchBase: !args.path_glob.includes('/'),
          }),
      ),
      args,
    );
    const hits: string[] = [];
    let total = 0;
    const files = new Map<string, number>();
    for (const { path, content } of scanned) {
      for (const n of linesOf(content, find(content))) {
        total += 1;
        const inFile = (files.get(path) ?? 0) + 1;
        files.set(path, inFile);
        if (hits.length >= ws.limits.hits || inFile > ws.limits.hitsPerFile) continue;
        const line = lineText(content, n).trim();
        const cut =
          line.length > ws.limits.lineChars ? `${line.slice(0, ws.limits.lineChars)}…` : line;
        hits.push(`${path}:${n}: ${cut}`);
      }
    }
    const where = args.path_glob ? ` in ${args.path_glob}` : '';
    const head =
      total === 0
        ? `no match for \`${args.pattern}\`${where} (${scanned.length} files searched)`
        : `${total} hits in ${files.size} files${where}` +
          (total > hits.length
            ? ` (${hits.length} shown, at most ${ws.limits.hitsPerFile} a file; narrow with path_glob)`
            : '');
    // More hits than are shown: the files that hold them, in the workspace's order (the most
    // relevant to the issue first), and which hold the most.
    const listed = (entries: [string, number][]): string =>
      entries
        .slice(0, 10)
        .map(([p, n]) => `${p} (${n})`)
        .join(', ');
    const most =
      total > hits.length
        ? [
            `files: ${listed([...files])}`,
            `most hits: ${listed([...files].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)))}`,
          ]
        : [];
    return {
      text: [head, ...most, ...hits].join('\n'),
      summary: `searched \`${args.pattern}\`${where}: ${total} hits in ${files.size} files`,
    };
  },
};
