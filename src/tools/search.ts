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

/** A line matcher, or the reason the pattern cannot be one. */
function matcherOf(args: Args): ((line: string) => boolean) | string {
  if (!args.regex) {
    const needle = args.case_sensitive ? args.pattern : args.pattern.toLowerCase();
    return args.case_sensitive
      ? (line) => line.includes(needle)
      : (line) => line.toLowerCase().includes(needle);
  }
  try {
    const re = RE2JS.compile(args.pattern, args.case_sensitive ? 0 : RE2JS.CASE_INSENSITIVE);
    return (line) => re.matcher(line).find();
  } catch (err) {
    return `not a valid regular expression (RE2 syntax): ${(err as Error).message}`;
  }
}

export const searchTool: Tool<Args> = {
  name: 'search',
  description:
    'Search the repository for text (or an RE2 regular expression with regex: true), ' +
    'optionally only in files matching path_glob. Answers path:line: text for each hit.',
  schema,
  async run(args, ws) {
    const match = matcherOf(args);
    if (typeof match === 'string') return refused(match, `search ${args.pattern}: refused`);
    const paths = (await ws.paths()).filter(
      (p) =>
        !args.path_glob ||
        minimatch(p, args.path_glob, { dot: true, matchBase: !args.path_glob.includes('/') }),
    );
    const hits: string[] = [];
    let total = 0;
    const files = new Map<string, number>();
    for (const path of paths) {
      const read = await ws.read(path);
      if (!read.ok) continue;
      const lines = read.text.split('\n');
      for (let i = 0; i < lines.length; i++) {
        if (!match(lines[i]!)) continue;
        total += 1;
        files.set(path, (files.get(path) ?? 0) + 1);
        if (hits.length >= ws.limits.hits) continue;
        const line = lines[i]!.trim();
        const cut =
          line.length > ws.limits.lineChars ? `${line.slice(0, ws.limits.lineChars)}…` : line;
        hits.push(`${path}:${i + 1}: ${cut}`);
      }
    }
    const where = args.path_glob ? ` in ${args.path_glob}` : '';
    const head =
      total === 0
        ? `no match for \`${args.pattern}\`${where} (${paths.length} files searched)`
        : `${total} hits in ${files.size} files${where}` +
          (total > hits.length ? ` (first ${hits.length} shown; narrow with path_glob)` : '');
    // More hits than are shown: which files hold the most says more than the first ones.
    const most =
      total > hits.length
        ? [
            `most hits: ${[...files]
              .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
              .slice(0, 10)
              .map(([p, n]) => `${p} (${n})`)
              .join(', ')}`,
          ]
        : [];
    return {
      text: [head, ...most, ...hits].join('\n'),
      summary: `searched \`${args.pattern}\`${where}: ${total} hits in ${files.size} files`,
    };
  },
};
