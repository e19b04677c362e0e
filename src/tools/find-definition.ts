/**
 * `find_definition`: where a function, class, method, type or constant is defined, the files and
 * folders named like it, and the first files that use it — after a definition a model reads its
 * callers, and a name the patterns cannot see defined (a struct field, a key) is still found.
 */
import { z } from 'zod';
import { filesNamed } from '../context/code-graph.js';
import { findDefinitions, type GrepFile } from '../context/grep-code.js';
import { refused, type Tool } from './tool.js';
import { repoTexts, symbolOf } from './repo-texts.js';
import { firstUses } from './uses.js';
import type { ToolLimits } from './tool-limits.js';

const schema = z
  .object({
    symbol: z.string().min(1).describe('The name, e.g. `parseConfig` or `Router.handle`.'),
  })
  .strict();

/** Files listed as named like the symbol, and as using it (one line each). */
const NAMED_FILES = 10;
const USED_IN_FILES = 8;

const hitLine = (path: string, line: number, text: string, limits: ToolLimits): string =>
  `${path}:${line}: ${text.trim().slice(0, limits.lineChars)}`;

/**
 * A module or package is named by its file or folder (`ios_facts`, `services/iam/`), not
 * defined: files so named first, then a folder's files, each in the workspace's order (the most
 * relevant to the issue first).
 */
function namedLike(files: readonly GrepFile[], name: string, defined: Set<string>) {
  const order = new Map(files.map((f, i) => [f.path, i]));
  return filesNamed(
    files.map((f) => f.path),
    name,
  )
    .filter((m) => !defined.has(m.path))
    .sort(
      (a, b) =>
        Number(a.how !== 'file') - Number(b.how !== 'file') ||
        (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0),
    )
    .slice(0, NAMED_FILES);
}

function answer(
  files: readonly GrepFile[],
  name: string,
  limits: ToolLimits,
): { text: string; found: number } {
  const hits = findDefinitions(files, name, limits.hits);
  const byPath = new Map(files.map((f) => [f.path, f.content]));
  const defined = new Set(hits.map((h) => h.path));
  const named = namedLike(files, name, defined);
  const listed = new Set([...defined, ...named.map((m) => m.path)]);
  const uses = firstUses(
    files.filter((f) => !listed.has(f.path)),
    name,
  );
  const found = listed.size > 0;
  const shown = uses.slice(0, USED_IN_FILES);
  const usedIn =
    uses.length === 0
      ? found
        ? []
        : ['(nor any use of the name: try search for a part of it)']
      : [
          `\`${name}\` is used in ${uses.length} ${found ? 'other ' : ''}file(s), the most relevant first` +
            `${uses.length > shown.length ? ` (the first ${shown.length})` : ''}:`,
          ...shown.map((u) => hitLine(u.path, u.line.n, u.line.text, limits)),
        ];
  const text = [
    ...(found ? [] : [`no definition of \`${name}\` found`]),
    ...(hits.length > 0
      ? [
          `\`${name}\` is defined in ${hits.length} file(s):`,
          ...hits.map((h) =>
            hitLine(
              h.path,
              h.line,
              (byPath.get(h.path) ?? '').split('\n')[h.line - 1] ?? '',
              limits,
            ),
          ),
        ]
      : []),
    ...(named.length > 0
      ? [
          `files and folders named \`${name}\`:`,
          ...named.map(
            (m) =>
              `${m.path}:1: (${m.how === 'file' ? 'the file is named' : 'in a folder named'} \`${name}\`)`,
          ),
        ]
      : []),
    ...usedIn,
  ].join('\n');
  return { text, found: listed.size };
}

export const findDefinitionTool: Tool<z.infer<typeof schema>> = {
  name: 'find_definition',
  description:
    'Find where a function, class, method, type or constant is defined (path:line and the ' +
    'line), and the first files that use it.',
  schema,
  async run(args, ws) {
    const name = symbolOf(args.symbol);
    if (!name)
      return refused(
        `\`${args.symbol}\` is not an identifier`,
        `definition of ${args.symbol}: refused`,
      );
    const { text, found } = answer(await repoTexts(ws), name, ws.limits);
    return { text, summary: `definition of ${name}: ${found} found` };
  },
};
