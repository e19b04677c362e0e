/** `find_definition`: where a function, class, method, type or constant is defined. */
import { z } from 'zod';
import { filesNamed } from '../context/code-graph.js';
import { findDefinitions } from '../context/grep-code.js';
import { refused, type Tool } from './tool.js';
import { repoTexts, symbolOf } from './repo-texts.js';

const schema = z
  .object({
    symbol: z.string().min(1).describe('The name, e.g. `parseConfig` or `Router.handle`.'),
  })
  .strict();

export const findDefinitionTool: Tool<z.infer<typeof schema>> = {
  name: 'find_definition',
  description:
    'Find where a function, class, method, type or constant is defined: path:line and the line.',
  schema,
  async run(args, ws) {
    const name = symbolOf(args.symbol);
    if (!name)
      return refused(
        `\`${args.symbol}\` is not an identifier`,
        `definition of ${args.symbol}: refused`,
      );
    const files = await repoTexts(ws);
    const hits = findDefinitions(files, name, ws.limits.hits);
    const byPath = new Map(files.map((f) => [f.path, f.content]));
    const lines = hits.slice(0, ws.limits.hits).map((h) => {
      const text = (byPath.get(h.path) ?? '').split('\n')[h.line - 1]?.trim() ?? '';
      return `${h.path}:${h.line}: ${text.slice(0, ws.limits.lineChars)}`;
    });
    // A module or package is named by its file or folder (`ios_facts`, `utils/`), not defined.
    const defined = new Set(hits.map((h) => h.path));
    const named = filesNamed(
      files.map((f) => f.path),
      name,
    )
      .filter((m) => m.how === 'file' && !defined.has(m.path))
      .slice(0, 10)
      .map((m) => `${m.path}:1: (the file is named \`${name}\`)`);
    const text =
      hits.length + named.length === 0
        ? `no definition of \`${name}\` found (try search for where it is used)`
        : [
            ...(hits.length > 0
              ? [`\`${name}\` is defined in ${hits.length} file(s):`, ...lines]
              : []),
            ...(named.length > 0 ? [`files named \`${name}\`:`, ...named] : []),
          ].join('\n');
    return { text, summary: `definition of ${name}: ${hits.length + named.length} found` };
  },
};
