import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface SourceFile {
  origin: string;
  lang: 'js' | 'py';
  text: string;
}

function walk(dir: string, out: string[], depth = 0): void {
  if (depth > 12) return;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const p = join(dir, e.name);
    if (e.isDirectory() && !e.isSymbolicLink()) walk(p, out, depth + 1);
    else if (e.isFile() && /\.(js|ts|py)$/.test(e.name) && !/\.(d|min)\.[jt]s$/.test(e.name))
      out.push(p);
  }
}

/** Readable source files already on the machine: not minified, not generated, UTF-8, LF. */
export function findSources(roots: readonly string[]): string[] {
  const all: string[] = [];
  for (const root of roots) walk(root, all);
  return all.filter((p) => {
    const size = statSync(p).size;
    return size >= 3000 && size <= 40000;
  });
}

export function loadSource(path: string, seen: Set<string>): SourceFile | undefined {
  const text = readFileSync(path, 'utf8');
  if (/[\r\0\uFFFD]/.test(text) || !text.endsWith('\n')) return undefined;
  const lines = text.split('\n');
  if (lines.length < 60 || lines.length > 1200) return undefined;
  if (lines.some((l) => l.length > 160)) return undefined;
  const indented = lines.filter((l) => /^\s+\S/.test(l)).length;
  if (indented < lines.length / 4) return undefined;
  const hash = createHash('sha1').update(text).digest('hex');
  if (seen.has(hash)) return undefined;
  seen.add(hash);
  return { origin: path, lang: path.endsWith('.py') ? 'py' : 'js', text };
}
