/** Large files for the tests of what the code agent and fixer are shown (file-view.ts). */

/** A changelog of about `bytes` bytes, newest release first; every entry line is unique. */
export function changelog(bytes: number): string {
  const out = ['# Changelog', '', 'All notable changes to this project are documented here.', ''];
  let size = out.join('\n').length;
  let entry = 0;
  for (let release = 400; size < bytes; release--) {
    const block = [`## [${Math.floor(release / 10)}.${release % 10}.0] - 2024-01-01`, ''];
    for (const kind of ['Added', 'Fixed', 'Changed']) {
      block.push(`### ${kind}`, '');
      for (let i = 0; i < 5; i++) {
        entry += 1;
        block.push(
          `- ${kind} the handling of widget option ${entry} when its input is empty (#${entry})`,
        );
      }
      block.push('');
    }
    out.push(...block);
    size += block.join('\n').length + 1;
  }
  return `${out.join('\n')}\n`;
}

/** The lines a view shows, with the numbers its `⋯ lines A-B not shown ⋯` markers give them. */
export function shownLines(view: string): { line: number; text: string }[] {
  const [note, ...body] = view.replace(/\n$/, '').split('\n');
  if (
    !/^⋯ \d+ lines \(\d+ KB\), too large to show whole: only lines [\d, -]+ are shown ⋯$/.test(
      note ?? '',
    )
  )
    throw new Error(`no note line: ${note}`);
  const shown: { line: number; text: string }[] = [];
  let next = 1;
  for (const text of body) {
    const marker = /^⋯ lines (\d+)-(\d+) not shown ⋯$/.exec(text);
    if (marker && Number(marker[1]) !== next)
      throw new Error(`marker ${text} where line ${next} is due`);
    if (marker) next = Number(marker[2]) + 1;
    else shown.push({ line: next++, text });
  }
  return shown;
}

/**
 * Reads a view back: checks that every shown line is the file's line at the number the markers
 * give it, and that the markers account for every other line. Returns the numbers shown.
 */
export function readView(view: string, content: string): number[] {
  const file = content.replace(/\n$/, '').split('\n');
  const shown = shownLines(view);
  for (const { line, text } of shown)
    if (text !== file[line - 1]) throw new Error(`line ${line} shown as ${JSON.stringify(text)}`);
  const lastMarker = /⋯ lines \d+-(\d+) not shown ⋯\n?$/.exec(view)?.[1];
  const end = Math.max(Number(lastMarker ?? 0), shown.at(-1)?.line ?? 0);
  if (end !== file.length) throw new Error(`view ends at line ${end} of ${file.length}`);
  return shown.map((s) => s.line);
}
