import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { extractSymbols, languageOf, RULES } from '../../../src/context/extract-symbols.js';

/** extractSymbols without the guards: every pattern on every line (the definition). */
function unguarded(path: string, content: string, max = 1000): unknown[] {
  const rules = RULES[languageOf(path) ?? ''] ?? [];
  const keywords = new Set(
    'if for while switch catch return else do try new function constructor'.split(' '),
  );
  const out: unknown[] = [];
  const lines = content.split('\n');
  for (let i = 0; i < lines.length && out.length < max; i++) {
    const line = lines[i] ?? '';
    if (line.length > 400) continue;
    for (const [pattern, kind] of rules) {
      const m = pattern.exec(line);
      if (!m) continue;
      const name = (m[2] !== undefined ? m[2] : m[1]) ?? '';
      if (!name || keywords.has(name)) continue;
      const resolvedKind = kind === '$1' ? (m[1] ?? kind) : kind;
      const topLevel = kind === 'heading' ? (m[1] ?? '').length <= 2 : !/^\s/.test(line);
      out.push({ name: name.trim(), kind: resolvedKind, line: i + 1, topLevel });
      break;
    }
  }
  return out;
}

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else if (/\.(ts|js|mjs)$/.test(name)) out.push(path);
  }
  return out;
}

describe('extractSymbols guards', () => {
  it('find what the patterns alone find, on odd JS/TS lines', () => {
    const content = [
      'export function a() {',
      '  method(x) {',
      '  method(x) {   ',
      '\tasync other<T>(y: T): Promise<void> {\r',
      '\u00a0nbspIndented() {',
      '\ufeffexport const bom = 1;',
      '\u2028lineSep() {',
      'export class B {',
      '  if (x) {',
      '  get value() {\u3000',
      '  notMethod(x);',
      '  {',
      '    constructor(a) {',
      'module.exports.c = 1;',
      'exports.d = () => {};',
      '  export function indented() {}',
      'type T<X> = X;',
      '',
      ' ',
    ].join('\n');
    for (const path of ['x.ts', 'x.js'])
      expect(extractSymbols(path, content)).toEqual(unguarded(path, content));
  });

  it('find what the patterns alone find, on this project’s sources', () => {
    const paths = [...files(join(process.cwd(), 'src')), ...files(join(process.cwd(), 'test'))];
    expect(paths.length).toBeGreaterThan(100);
    for (const path of paths) {
      const content = readFileSync(path, 'utf8');
      const got = extractSymbols(path, content);
      if (JSON.stringify(got) !== JSON.stringify(unguarded(path, content)))
        throw new Error(`differs on ${path}`);
    }
  });
});
