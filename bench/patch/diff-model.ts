/** A clean git diff split into files and hunks (parsed by counts, which are exact in git output). */
export interface DiffFile {
  header: string[];
  hunks: DiffHunk[];
}

export interface DiffHunk {
  header: string;
  lines: string[];
}

export function parseGitDiff(text: string): DiffFile[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const files: DiffFile[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (line.startsWith('diff --git ')) {
      files.push({ header: [line], hunks: [] });
      i++;
      continue;
    }
    const file = files[files.length - 1];
    if (!file) throw new Error(`unexpected diff line ${line}`);
    const m = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
    if (!m) {
      file.header.push(line);
      i++;
      continue;
    }
    let oldLeft = m[1] === undefined ? 1 : Number(m[1]);
    let newLeft = m[2] === undefined ? 1 : Number(m[2]);
    const hunk: DiffHunk = { header: line, lines: [] };
    i++;
    while (i < lines.length && (oldLeft > 0 || newLeft > 0 || (lines[i] ?? '').startsWith('\\'))) {
      const l = lines[i] ?? '';
      if (l.startsWith(' ')) {
        oldLeft--;
        newLeft--;
      } else if (l.startsWith('-')) oldLeft--;
      else if (l.startsWith('+')) newLeft--;
      hunk.lines.push(l);
      i++;
    }
    file.hunks.push(hunk);
  }
  return files;
}

export function formatGitDiff(files: readonly DiffFile[], eol = '\n'): string {
  return files
    .map((f) =>
      [...f.header, ...f.hunks.flatMap((h) => [h.header, ...h.lines])].map((l) => l + eol).join(''),
    )
    .join('');
}

export function cloneDiff(files: readonly DiffFile[]): DiffFile[] {
  return files.map((f) => ({
    header: [...f.header],
    hunks: f.hunks.map((h) => ({ header: h.header, lines: [...h.lines] })),
  }));
}
