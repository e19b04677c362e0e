/** `find_definition`: where a function, class, method, type or constant is defined. */
import { z } from 'zod';
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
    const text =
      hits.length === 0
        ? `no definition of \`${name}\` found (try search for where it is used)`
        : [`\`${name}\` is defined in ${hits.length} file(s):`, ...lines].join('\n');
    return { text, summary: `definition of ${name}: ${hits.length} found` };
  },
};
