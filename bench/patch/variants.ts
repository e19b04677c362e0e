import { basename } from 'node:path';
import { diffArrays } from 'diff';
import { EDITS, editAtEnd, newModule } from './edits.js';
import type { Edit } from './edits.js';
import type { Rng } from './prng.js';
import type { SourceFile } from './sources.js';

/** Path → content; undefined means the file must not exist. */
export type Tree = Map<string, string | undefined>;

function splitText(text: string): string[] {
  return text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
}

/** Picks 1-3 source files and makes 1-3 realistic edits in each; sometimes adds or deletes a file. */
export function makeEdit(
  rng: Rng,
  pool: SourceFile[],
  idx: number,
): { original: Map<string, string>; intended: Tree } | undefined {
  const original = new Map<string, string>();
  const intended: Tree = new Map();
  const count = rng.chance(0.3) ? rng.int(2, 3) : 1;
  let changed = 0;
  for (let k = 0; k < count && pool.length > 0; k++) {
    const src = pool.pop() as SourceFile;
    const path = `src/m${idx}/${k}-${basename(src.origin)}`;
    original.set(path, src.text);
    let lines = splitText(src.text);
    const edits = 1 + (rng.chance(0.5) ? 1 : 0) + (rng.chance(0.2) ? 1 : 0);
    for (let e = 0; e < edits; e++) {
      for (let attempt = 0; attempt < 8; attempt++) {
        const next = rng.pick(EDITS)(lines, rng, src.lang);
        if (next && next.join('\n') !== lines.join('\n')) {
          lines = next;
          break;
        }
      }
    }
    const text = `${lines.join('\n')}\n`;
    intended.set(path, text);
    if (text !== src.text) changed++;
  }
  if (changed === 0) return undefined;
  if (rng.chance(0.1)) intended.set(`src/m${idx}/new-${rng.int(1, 99)}.js`, newModule(rng, 'js'));
  if (rng.chance(0.06) && pool.length > 0) {
    const src = pool.pop() as SourceFile;
    const path = `src/m${idx}/gone-${basename(src.origin)}`;
    original.set(path, src.text);
    intended.set(path, undefined);
  }
  return { original, intended };
}

const modified = (original: Map<string, string>, intended: Tree): string[] =>
  [...original.keys()].filter(
    (p) => intended.get(p) !== undefined && intended.get(p) !== original.get(p),
  );

/** The same edit on files with trailing whitespace on some kept and removed lines. */
export function withTrailingWhitespace(
  rng: Rng,
  original: Map<string, string>,
  intended: Tree,
): { original: Map<string, string>; intended: Tree } {
  const o2 = new Map(original);
  const t2: Tree = new Map(intended);
  for (const path of modified(original, intended)) {
    const o = splitText(original.get(path) ?? '');
    const t = splitText(intended.get(path) ?? '');
    const oo: string[] = [];
    const tt: string[] = [];
    for (const part of diffArrays(o, t)) {
      for (const line of part.value) {
        const ws = line.trim() !== '' && rng.chance(0.3) ? rng.pick([' ', '  ', '\t', ' \t']) : '';
        if (part.added) tt.push(line);
        else if (part.removed) oo.push(line + ws);
        else {
          oo.push(line + ws);
          tt.push(line + ws);
        }
      }
    }
    o2.set(path, `${oo.join('\n')}\n`);
    t2.set(path, `${tt.join('\n')}\n`);
  }
  return { original: o2, intended: t2 };
}

/** The same edit plus one at the very end, on files that lack a final newline. */
export function withoutFinalNewline(
  rng: Rng,
  original: Map<string, string>,
  intended: Tree,
): { original: Map<string, string>; intended: Tree } {
  const o2 = new Map(original);
  const t2: Tree = new Map(intended);
  for (const path of modified(original, intended)) {
    const lang = path.endsWith('.py') ? 'py' : 'js';
    o2.set(path, (original.get(path) ?? '').replace(/\n+$/, ''));
    const lines = splitText((intended.get(path) ?? '').replace(/\n+$/, '\n'));
    t2.set(path, (editAtEnd(lines, rng, lang) ?? lines).join('\n'));
  }
  return { original: o2, intended: t2 };
}

/**
 * `edit` made once in one of the `original` files (tried in a random order, a few times each):
 * the full intended tree, or undefined when no file offers a place for it.
 */
export function editOneFile(
  rng: Rng,
  original: ReadonlyMap<string, string>,
  edit: Edit,
): Map<string, string> | undefined {
  for (const path of rng.shuffle([...original.keys()])) {
    const text = original.get(path) ?? '';
    const lines = splitText(text);
    const lang = path.endsWith('.py') ? 'py' : 'js';
    for (let attempt = 0; attempt < 4; attempt++) {
      const next = edit(lines, rng, lang);
      if (next && next.join('\n') !== lines.join('\n'))
        return new Map(original).set(path, `${next.join('\n')}\n`);
    }
  }
  return undefined;
}
