/**
 * Files that embed the absolute path of the job that ran `setup` (a venv's `bin/*` shebangs and
 * `pyvenv.cfg`, an editable install's `.pth`, node-gyp's Makefiles) are restored as fresh copies
 * with the new job's path (pure part). A binary file that embeds it cannot be rewritten safely
 * (the length changes): such a result is not cached.
 */

export type Embedding = 'none' | 'text' | 'binary';

/** Whether `content` holds `path`, and in what kind of file. */
export function embeddedPath(content: Buffer, path: string): Embedding {
  if (content.indexOf(path) < 0) return 'none';
  return content.indexOf(0) >= 0 ? 'binary' : 'text';
}

/**
 * Every occurrence of `from` replaced by `to`, where `from` is a whole path prefix (followed by
 * `/`, a quote, a space, the end… — never by more name characters: `/jobs/a` is not in `/jobs/ab`).
 */
export function relocateText(content: string, from: string, to: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const i = content.indexOf(from, at);
    if (i < 0) return out + content.slice(at);
    const next = content[i + from.length];
    const whole = next === undefined || !/[\w.-]/.test(next);
    out += content.slice(at, i) + (whole ? to : from);
    at = i + from.length;
  }
}
