import { minimatch } from 'minimatch';

function tidy(pattern: string): string {
  let p = pattern.trim();
  while (p.startsWith('./')) p = p.slice(2);
  if (p.startsWith('/')) p = p.slice(1); // gitignore-style anchoring: the root is implied
  while (p.endsWith('/')) p = p.slice(0, -1);
  return p;
}

/**
 * Whether a repository path falls under a glob: the path itself matches, or one of its parent
 * directories does (so `secrets` and `secrets/**` both cover `secrets/a.json`). Dotfiles count.
 */
export function matchPathPattern(path: string, pattern: string, nocase: boolean): boolean {
  const glob = tidy(pattern);
  if (glob === '') return false;
  const options = { dot: true, nocase };
  const segments = path.split('/');
  for (let i = segments.length; i > 0; i--) {
    if (minimatch(segments.slice(0, i).join('/'), glob, options)) return true;
  }
  return false;
}
