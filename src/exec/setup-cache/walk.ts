/** Bounded parallel work over many files, and the walk of what setup produced. */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Runs `fn` over `items`, at most `limit` at a time; the first failure rejects. */
export async function eachLimit<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export interface Walked {
  dirs: string[];
  files: string[];
  links: string[];
  /** Sockets, FIFOs, devices: never cached. */
  special: string[];
}

/** Every path under the relative `products` of `root`, by kind (links never followed). */
export async function walkProducts(root: string, products: readonly string[]): Promise<Walked> {
  const out: Walked = { dirs: [], files: [], links: [], special: [] };
  const visit = async (rel: string): Promise<void> => {
    const s = await lstat(join(root, rel));
    if (s.isSymbolicLink()) out.links.push(rel);
    else if (s.isFile()) out.files.push(rel);
    else if (s.isDirectory()) {
      out.dirs.push(rel);
      const names = await readdir(join(root, rel));
      await Promise.all(names.map((name) => visit(`${rel}/${name}`)));
    } else out.special.push(rel);
  };
  await Promise.all(products.map(visit));
  out.dirs.sort();
  return out;
}
