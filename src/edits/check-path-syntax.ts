/**
 * Why a path string cannot name a file inside the repository, or undefined when it can.
 * Purely textual (docs/SECURITY.md, rule 1): relative, normalized, no `..`, no absolute or drive
 * paths, no NUL or control characters. Symlinks are checked separately against the real tree.
 */
export function checkPathSyntax(path: string): string | undefined {
  if (path === '') return 'is empty; name a file relative to the repository root';
  if (path.includes('\0')) return 'contains a NUL byte';
  if ([...path].some((c) => c < ' ' || c === '\u007f')) return 'contains control characters';
  if (/^[A-Za-z]:/.test(path))
    return 'is a Windows drive path; paths must be relative to the repository root';
  if (path.includes('\\')) return 'uses backslashes; separate directories with `/`';
  if (path.startsWith('/')) return 'is absolute; paths must be relative to the repository root';
  if (path.startsWith('~')) return 'starts with `~`; paths must be relative to the repository root';
  const segments = path.split('/');
  if (segments.includes('..')) return 'contains `..`; paths must stay inside the repository';
  if (segments.some((s) => s === '' || s === '.'))
    return 'is not normalized (empty or `.` segments, or a trailing `/`); write it like `src/app.ts`';
  if (path.length > 4096) return 'is too long';
  return undefined;
}
