/**
 * The identity of every regular file under a folder (inode, size, mtime, mode, owner; ctime apart),
 * read by one `find` rather than one `lstat` per file: 28,000 files (dayjs's node_modules) in a
 * fraction of the time. The same reader records an entry and checks it before each reuse.
 */
import { execFile } from 'node:child_process';

export interface Identity {
  /** `<inode> <size> <mtime> <mode> <uid>`: what an in-place write or chmod changes. */
  id: string;
  size: number;
  /** The ctime, which link() changes too: only compared for entries nothing links. */
  ctime: string;
}

/** Relative path → identity of each regular file under `dir` (links never followed). */
export function fileIdentities(dir: string): Promise<Map<string, Identity>> {
  return new Promise((resolve, reject) => {
    execFile(
      'find',
      [dir, '-type', 'f', '-printf', '%i %s %T@ %m %U %C@ %P\\0'],
      { maxBuffer: 1 << 30, env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' } },
      (err, stdout) => {
        if (err) return reject(err as Error);
        const out = new Map<string, Identity>();
        for (const line of stdout.split('\0')) {
          if (!line) continue;
          const fields = line.split(' ');
          const path = fields.slice(6).join(' ');
          out.set(path, {
            id: fields.slice(0, 5).join(' '),
            size: Number(fields[1]),
            ctime: fields[5]!,
          });
        }
        resolve(out);
      },
    );
  });
}
